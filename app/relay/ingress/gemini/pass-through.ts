import { getChannelType } from "~/domain/channels/catalog";
import {
  ChannelConfigError,
  STREAM_IDLE_TIMEOUT,
  type Adapter,
  type StreamStep,
  type StreamTranslator,
} from "../../adapters/types";
import { parseGeminiUsage, type ParsedUsage } from "../../billing/usage-parse";
import { asArray, isObject, sseFrame, type Json } from "../json-shape";
import { googleErrorBody, parseGeminiError } from "./errors";

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
    for (const part of asArray(candidate.content.parts))
      if (isObject(part) && typeof part.text === "string") text += part.text;
  }
  return text;
}

/** Whether a chunk ends the reply: a candidate's finishReason, or the prompt blocked. */
function endsReply(reply: Json): boolean {
  if (isObject(reply.promptFeedback) && reply.promptFeedback.blockReason) return true;
  return asArray(reply.candidates).some(
    (candidate) => isObject(candidate) && typeof candidate.finishReason === "string" && candidate.finishReason !== "",
  );
}

/**
 * Forwards Gemini's SSE chunks as they are; the last usageMetadata seen once the reply finished
 * is the one billed. Gemini has no closing event: the reply is whole once a chunk carries a
 * finishReason.
 */
function forwardingTranslator(): StreamTranslator {
  let errorForwarded = false;
  let ended = false;
  return {
    push(_event, data): StreamStep {
      const chunks = [sseFrame(data)];
      const reply = parse(data);
      if (!reply) return { chunks };
      if (isObject(reply.error)) {
        errorForwarded = true;
        return { chunks, error: parseGeminiError(500, data) };
      }
      if (endsReply(reply)) ended = true;
      // Before the reply finishes, usageMetadata is a running count (often without the
      // candidates' tokens): it is billed from the finishing chunk on, so a reply cut short is
      // billed for the text that passed, counted.
      const usage: ParsedUsage =
        !ended || reply.usageMetadata === undefined ? {} : parseGeminiUsage(reply.usageMetadata);
      return { chunks, ...usage, text: textOf(reply) };
    },
    finished: () => ended,
    close(_billed, error) {
      // The gateway's own error (the upstream went quiet, or broke off mid-reply) as the last chunk.
      if (!error || errorForwarded) return "";
      return sseFrame(googleErrorBody(error.code === STREAM_IDLE_TIMEOUT ? 504 : 500, error.message));
    },
  };
}

/**
 * A Gemini channel (type 24) serving a Gemini client: the client's bytes go, as they came, to
 * `{base}/v1beta/models/{mapped model}:{method}` with the channel's key in `x-goog-api-key`,
 * and the reply's bytes come back unchanged.
 */
export function geminiPassThrough(raw: Buffer): Adapter {
  return {
    streamUsage: true,
    buildRequest(ctx) {
      const base = (ctx.channel.base_url || (getChannelType(24)?.defaultBaseUrl ?? "")).replace(/\/+$/, "");
      if (!base) throw new ChannelConfigError(`渠道 #${ctx.channel.id} 未设置 Base URL`);
      const method = ctx.stream ? "streamGenerateContent?alt=sse" : "generateContent";
      const headers: Record<string, string> = { "Content-Type": "application/json", "x-goog-api-key": ctx.key };
      if (ctx.stream) headers.Accept = "text/event-stream";
      return {
        url: `${base}/v1beta/models/${encodeURIComponent(ctx.upstreamModel)}:${method}`,
        headers,
        body: raw.length > 0 ? raw : "{}",
      };
    },
    convertResponse(_ctx, raw) {
      const reply = parse(raw.toString("utf8"));
      return { body: raw, ...(reply ? parseGeminiUsage(reply.usageMetadata) : {}) };
    },
    createStreamTranslator: () => forwardingTranslator(),
    parseError: parseGeminiError,
  };
}
