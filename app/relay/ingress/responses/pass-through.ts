import { upstreamUrl, usageOfReply } from "../../adapters/openai/openai-adapter";
import { parseOpenAiError } from "../../adapters/openai/openai-errors";
import type { Adapter, StreamStep, StreamTranslator } from "../../adapters/types";
import { parseOpenAiUsage } from "../../billing/usage-parse";
import { isObject, sseFrame, type Json } from "../json-shape";

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** Forwards Responses events as they are; usage comes from the terminal event's response. */
function forwardingTranslator(): StreamTranslator {
  let errorForwarded = false;
  return {
    push(event, data): StreamStep {
      let payload: Json = {};
      try {
        const parsed: unknown = JSON.parse(data);
        if (isObject(parsed)) payload = parsed;
      } catch {}
      const name = event ?? (typeof payload.type === "string" ? payload.type : "message");
      const chunks = [sseFrame(data, name)];
      if (name === "response.output_text.delta" || name === "response.function_call_arguments.delta") return { chunks, text: typeof payload.delta === "string" ? payload.delta : undefined };
      if (TERMINAL.has(name)) return { chunks, ...(isObject(payload.response) ? parseOpenAiUsage(payload.response.usage) : {}), done: true };
      if (name === "error") {
        errorForwarded = true;
        return { chunks, error: { message: typeof payload.message === "string" ? payload.message : "upstream stream error", type: "upstream_error", code: typeof payload.code === "string" ? payload.code : null } };
      }
      return { chunks };
    },
    close(_billed, error) {
      if (!error || errorForwarded) return "";
      return sseFrame({ type: "error", code: error.code ?? "server_error", message: error.message, param: null }, "error");
    },
  };
}

/**
 * An OpenAI channel serving a Responses client: the client's body goes to `{base}/v1/responses`
 * with the channel's model mapping applied and its key as a Bearer token; the reply comes back
 * as it is, billed from `usage.input_tokens` / `output_tokens`.
 */
export function responsesPassThrough(native: Json, defaultBase: string): Adapter {
  return {
    streamUsage: true,
    buildRequest(ctx) {
      const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${ctx.key}` };
      if (ctx.channel.openai_organization) headers["OpenAI-Organization"] = ctx.channel.openai_organization;
      if (ctx.stream) headers.Accept = "text/event-stream";
      return { url: upstreamUrl({ ...ctx, path: "/v1/responses" }, defaultBase), headers, body: JSON.stringify({ ...native, model: ctx.upstreamModel }) };
    },
    convertResponse: (_ctx, raw) => ({ body: raw, ...usageOfReply(raw) }),
    createStreamTranslator: () => forwardingTranslator(),
    parseError: parseOpenAiError,
  };
}
