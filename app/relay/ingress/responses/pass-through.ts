import { upstreamUrl } from "../../adapters/openai/openai-adapter";
import { usageOfReply } from "../../adapters/shared/openai-payload";
import { parseOpenAiError } from "../../adapters/shared/openai-errors";
import type { Adapter, StreamStep, StreamTranslator } from "../../adapters/types";
import { parseOpenAiUsage } from "../../billing/usage-parse";
import { isObject, sseFrame, type Json } from "../json-shape";
import { nativeBodyFor } from "../native-json";

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"]);

/**
 * Forwards Responses events as they are; usage comes from the terminal event's response, and the
 * reply is whole at that event. An error of the gateway's own is numbered after the last event.
 */
function forwardingTranslator(): StreamTranslator {
  let errorForwarded = false;
  let terminal = false;
  let nextSequence = 0;
  return {
    push(event, data): StreamStep {
      let payload: Json = {};
      try {
        const parsed: unknown = JSON.parse(data);
        if (isObject(parsed)) payload = parsed;
      } catch {}
      const name = event ?? (typeof payload.type === "string" ? payload.type : "message");
      const chunks = [sseFrame(data, name)];
      const sequence = payload.sequence_number;
      if (typeof sequence === "number" && Number.isSafeInteger(sequence) && sequence >= 0) nextSequence = sequence + 1;
      if (name === "response.output_text.delta" || name === "response.function_call_arguments.delta")
        return { chunks, text: typeof payload.delta === "string" ? payload.delta : undefined };
      if (TERMINAL.has(name)) {
        terminal = true;
        return { chunks, ...(isObject(payload.response) ? parseOpenAiUsage(payload.response.usage) : {}), done: true };
      }
      if (name === "error") {
        errorForwarded = true;
        return {
          chunks,
          error: {
            message: typeof payload.message === "string" ? payload.message : "upstream stream error",
            type: "upstream_error",
            code: typeof payload.code === "string" ? payload.code : null,
          },
        };
      }
      return { chunks };
    },
    finished: () => terminal,
    close(_billed, error) {
      // The gateway's own error (the upstream went quiet, or broke off mid-reply), in place of a terminal event.
      if (!error || errorForwarded) return "";
      return sseFrame(
        {
          type: "error",
          code: error.code ?? "server_error",
          message: error.message,
          param: null,
          sequence_number: nextSequence,
        },
        "error",
      );
    },
  };
}

/**
 * An OpenAI channel serving a Responses client: the client's body goes to `{base}/v1/responses`
 * with the channel's model mapping applied and its key as a Bearer token; the reply comes back
 * as it is, billed from `usage.input_tokens` / `output_tokens`.
 */
export function responsesPassThrough(native: Json, raw: Buffer, defaultBase: string): Adapter {
  return {
    streamUsage: true,
    buildRequest(ctx) {
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        Authorization: `Bearer ${ctx.key}`,
      };
      if (ctx.channel.openai_organization) headers["OpenAI-Organization"] = ctx.channel.openai_organization;
      if (ctx.stream) headers.Accept = "text/event-stream";
      return {
        url: upstreamUrl({ ...ctx, path: "/v1/responses" }, defaultBase),
        headers,
        body: nativeBodyFor(raw, native, ctx.upstreamModel),
      };
    },
    convertResponse: (_ctx, raw) => ({ body: raw, ...usageOfReply(raw) }),
    createStreamTranslator: () => forwardingTranslator(),
    parseError: parseOpenAiError,
  };
}
