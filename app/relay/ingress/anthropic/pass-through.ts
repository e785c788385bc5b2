import { parseAnthropicError } from "../../adapters/anthropic/errors";
import { ChannelConfigError, STREAM_IDLE_TIMEOUT, type Adapter, type StreamStep, type StreamTranslator } from "../../adapters/types";
import { parseAnthropicUsage, type ParsedUsage } from "../../billing/usage-parse";
import { isObject, sseFrame, type Json } from "../json-shape";
import { nativeBodyFor } from "../native-json";
import { anthropicErrorType } from "./errors";

/** The Anthropic headers a client sends that the upstream must see too (version, beta features). */
export type AnthropicClientHeaders = { version?: string; beta?: string };

function usageOfMessage(raw: Buffer): ParsedUsage {
  try {
    const message: unknown = JSON.parse(raw.toString("utf8"));
    return isObject(message) ? parseAnthropicUsage(message.usage) : {};
  } catch {
    return {};
  }
}

/**
 * Forwards Anthropic events as they are, reading what billing needs on the way: input counts
 * from message_start, the cumulative output from message_delta, text for a count if no usage.
 * The reply is whole at message_stop: the client's SDK waits for it.
 */
function forwardingTranslator(): StreamTranslator {
  let usage: Json = {};
  let errorForwarded = false;
  let stopped = false;
  return {
    push(event, data): StreamStep {
      let payload: Json = {};
      try {
        const parsed: unknown = JSON.parse(data);
        if (isObject(parsed)) payload = parsed;
      } catch {}
      const name = event ?? (typeof payload.type === "string" ? payload.type : "message");
      const chunks = [sseFrame(data, name)];
      if (name === "message_start" && isObject(payload.message) && isObject(payload.message.usage)) usage = { ...payload.message.usage };
      if (name === "message_delta" && isObject(payload.usage)) {
        for (const [key, value] of Object.entries(payload.usage)) if (value !== null && value !== undefined) usage[key] = value;
        return { chunks, ...parseAnthropicUsage(usage) };
      }
      if (name === "content_block_delta" && isObject(payload.delta)) {
        const text = payload.delta.text ?? payload.delta.partial_json ?? payload.delta.thinking;
        return { chunks, text: typeof text === "string" ? text : undefined };
      }
      if (name === "message_stop") {
        stopped = true;
        return { chunks, done: true };
      }
      if (name === "error") {
        errorForwarded = true;
        const error = isObject(payload.error) ? payload.error : {};
        return { chunks, error: { message: typeof error.message === "string" ? error.message : "upstream stream error", type: typeof error.type === "string" ? error.type : "upstream_error", code: null } };
      }
      return { chunks };
    },
    finished: () => stopped,
    close(_billed, error) {
      // An error the upstream sent was forwarded as it came; the gateway's own (the upstream went
      // quiet, or broke off mid-reply) is framed here, in message_stop's place.
      if (!error || errorForwarded) return "";
      const status = error.code === STREAM_IDLE_TIMEOUT ? 504 : 500;
      return sseFrame({ type: "error", error: { type: anthropicErrorType(status), message: error.message } }, "error");
    },
  };
}

/**
 * A Claude channel (type 14) serving an Anthropic client: the client's Messages bytes go up as
 * they came, with the channel's model mapping applied; the reply's bytes come back unchanged.
 */
export function anthropicPassThrough(native: Json, raw: Buffer, client: AnthropicClientHeaders): Adapter {
  return {
    streamUsage: true,
    buildRequest(ctx) {
      const base = (ctx.channel.base_url || "https://api.anthropic.com").replace(/\/+$/, "");
      if (!base) throw new ChannelConfigError(`渠道 #${ctx.channel.id} 未设置 Base URL`);
      const headers: Record<string, string> = { "Content-Type": "application/json", "x-api-key": ctx.key, "anthropic-version": client.version || "2023-06-01" };
      if (client.beta) headers["anthropic-beta"] = client.beta;
      if (ctx.stream) headers.Accept = "text/event-stream";
      return { url: `${base}/v1/messages`, headers, body: nativeBodyFor(raw, native, ctx.upstreamModel) };
    },
    convertResponse: (_ctx, raw) => ({ body: raw, ...usageOfMessage(raw) }),
    createStreamTranslator: () => forwardingTranslator(),
    parseError: parseAnthropicError,
  };
}
