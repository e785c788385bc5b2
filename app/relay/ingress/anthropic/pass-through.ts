import { parseAnthropicError } from "../../adapters/anthropic/errors";
import {
  ChannelConfigError,
  STREAM_IDLE_TIMEOUT,
  type Adapter,
  type StreamStep,
  type StreamTranslator,
} from "../../adapters/types";
import { anthropicCounts } from "../../billing/billed-usage-body";
import type { Usage } from "../../billing/pricing";
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
 * The reply is whole at message_stop: the client's SDK waits for it. The closing message_delta
 * and message_stop wait for the bill, so the usage the stream ends with is the usage billed (the
 * upstream's bytes when its counts were billed as they came).
 */
function forwardingTranslator(): StreamTranslator {
  let usage: Json = {};
  let errorForwarded = false;
  let stopped = false;
  let closing: { delta: string; reported?: Usage } | undefined;
  let stopFrame = "";
  return {
    push(event, data): StreamStep {
      let payload: Json = {};
      try {
        const parsed: unknown = JSON.parse(data);
        if (isObject(parsed)) payload = parsed;
      } catch {}
      const name = event ?? (typeof payload.type === "string" ? payload.type : "message");
      const chunks = [sseFrame(data, name)];
      if (name === "message_start" && isObject(payload.message) && isObject(payload.message.usage))
        usage = { ...payload.message.usage };
      if (name === "message_delta" && isObject(payload.usage)) {
        for (const [key, value] of Object.entries(payload.usage))
          if (value !== null && value !== undefined) usage[key] = value;
        const parsed = parseAnthropicUsage(usage);
        closing = { delta: data, reported: parsed.usage };
        return { chunks: [], ...parsed };
      }
      if (name === "content_block_delta" && isObject(payload.delta)) {
        const text = payload.delta.text ?? payload.delta.partial_json ?? payload.delta.thinking;
        return { chunks, text: typeof text === "string" ? text : undefined };
      }
      if (name === "message_stop") {
        stopped = true;
        if (!closing) return { chunks, done: true };
        stopFrame = chunks[0]!;
        return { chunks: [], done: true };
      }
      if (name === "error") {
        errorForwarded = true;
        const error = isObject(payload.error) ? payload.error : {};
        return {
          chunks,
          error: {
            message: typeof error.message === "string" ? error.message : "upstream stream error",
            type: typeof error.type === "string" ? error.type : "upstream_error",
            code: null,
          },
        };
      }
      return { chunks };
    },
    finished: () => stopped,
    close(billed, error) {
      const held = closing
        ? sseFrame(billedDelta(closing.delta, closing.reported, billed), "message_delta") + stopFrame
        : "";
      // An error the upstream sent was forwarded as it came; the gateway's own (the upstream went
      // quiet, or broke off mid-reply) is framed here, in message_stop's place.
      if (!error || errorForwarded) return held;
      const status = error.code === STREAM_IDLE_TIMEOUT ? 504 : 500;
      return (
        held + sseFrame({ type: "error", error: { type: anthropicErrorType(status), message: error.message } }, "error")
      );
    },
  };
}

/**
 * The closing message_delta reporting the usage billed: its own bytes when its counts were billed
 * as they came, else its usage in Anthropic's terms (input without the cache's reads and writes).
 */
function billedDelta(data: string, reported: Usage | undefined, billed: Usage): string {
  if (
    reported &&
    reported.prompt_tokens === billed.prompt_tokens &&
    reported.completion_tokens === billed.completion_tokens
  )
    return data;
  try {
    const event: unknown = JSON.parse(data);
    if (!isObject(event)) return data;
    event.usage = { ...(isObject(event.usage) ? event.usage : {}), ...anthropicCounts(billed) };
    return JSON.stringify(event);
  } catch {
    return data;
  }
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
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        "x-api-key": ctx.key,
        "anthropic-version": client.version || "2023-06-01",
      };
      if (client.beta) headers["anthropic-beta"] = client.beta;
      if (ctx.stream) headers.Accept = "text/event-stream";
      return { url: `${base}/v1/messages`, headers, body: nativeBodyFor(raw, native, ctx.upstreamModel) };
    },
    convertResponse: (_ctx, raw) => ({ body: raw, ...usageOfMessage(raw) }),
    createStreamTranslator: () => forwardingTranslator(),
    parseError: parseAnthropicError,
  };
}
