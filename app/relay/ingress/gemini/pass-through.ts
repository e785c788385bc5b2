import { getChannelType } from "~/domain/channels/catalog";
import { ChannelConfigError, type Adapter, type StreamStep, type StreamTranslator } from "../../adapters/types";
import type { ParsedUsage } from "../../billing/usage-parse";
import { asArray, isObject, sseFrame, type Json } from "../json-shape";
import { googleErrorBody, parseGeminiError } from "./errors";
import { parseGeminiUsage } from "./usage";

function parse(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function textOf(reply: Json): string {
  let text = "";
  for (const candidate of asArray(reply.candidates)) {
    if (!isObject(candidate) || !isObject(candidate.content)) continue;
    for (const part of asArray(candidate.content.parts)) if (isObject(part) && typeof part.text === "string") text += part.text;
  }
  return text;
}

/** Forwards Gemini's SSE chunks as they are; the last usageMetadata seen is the one billed. */
function forwardingTranslator(): StreamTranslator {
  let errorForwarded = false;
  return {
    push(_event, data): StreamStep {
      const chunks = [sseFrame(data)];
      const reply = parse(data);
      if (!reply) return { chunks };
      if (isObject(reply.error)) {
        errorForwarded = true;
        return { chunks, error: parseGeminiError(500, data) };
      }
      const usage: ParsedUsage = reply.usageMetadata === undefined ? {} : parseGeminiUsage(reply.usageMetadata);
      return { chunks, ...usage, text: textOf(reply) };
    },
    close(_billed, error) {
      if (!error || errorForwarded) return "";
      return sseFrame(googleErrorBody(504, error.message));
    },
  };
}

/**
 * A Gemini channel (type 24) serving a Gemini client: the client's body goes to
 * `{base}/v1beta/models/{mapped model}:{method}` with the channel's key in `x-goog-api-key`,
 * and the reply's bytes come back unchanged.
 */
export function geminiPassThrough(native: Json): Adapter {
  return {
    streamUsage: true,
    buildRequest(ctx) {
      const base = (ctx.channel.base_url || (getChannelType(24)?.defaultBaseUrl ?? "")).replace(/\/+$/, "");
      if (!base) throw new ChannelConfigError(`渠道 #${ctx.channel.id} 未设置 Base URL`);
      const method = ctx.stream ? "streamGenerateContent?alt=sse" : "generateContent";
      const headers: Record<string, string> = { "Content-Type": "application/json", "x-goog-api-key": ctx.key };
      if (ctx.stream) headers.Accept = "text/event-stream";
      return { url: `${base}/v1beta/models/${encodeURIComponent(ctx.upstreamModel)}:${method}`, headers, body: JSON.stringify(native) };
    },
    convertResponse(_ctx, raw) {
      const reply = parse(raw.toString("utf8"));
      return { body: raw, ...(reply ? parseGeminiUsage(reply.usageMetadata) : {}) };
    },
    createStreamTranslator: () => forwardingTranslator(),
    parseError: parseGeminiError,
  };
}
