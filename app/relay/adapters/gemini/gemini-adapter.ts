import { countText } from "../../stream/token-counter";
import { clientWantsUsage } from "../shared/client-usage";
import { ChannelConfigError, type Adapter, type AdapterContext, type UpstreamRequest } from "../types";
import { toGeminiEmbedRequest, toGeminiRequest } from "./convert-request";
import { toOpenAiChatResponse, toOpenAiEmbeddings, type GeminiResponse } from "./convert-response";
import { createGeminiStreamTranslator } from "./convert-stream";
import { parseGoogleError } from "./errors";

export const GEMINI_DEFAULT_BASE = "https://generativelanguage.googleapis.com";
export const GEMINI_DEFAULT_VERSION = "v1beta";

/** The API version from the channel's `other` (v1beta when empty); anything that is not a version segment is refused. */
export function geminiApiVersion(other: string): string {
  const version = other.trim() || GEMINI_DEFAULT_VERSION;
  if (!/^v\d+[a-z0-9]*$/.test(version)) throw new ChannelConfigError(`Gemini API 版本无效：${version}`);
  return version;
}

/** `models/gemini-2.0-flash` and `gemini-2.0-flash` name the same model; the path wants it once. */
export function modelSegment(model: string): string {
  return encodeURIComponent(model.replace(/^models\//, ""));
}

/** `:generateContent`, `:streamGenerateContent?alt=sse` (SSE; without alt the stream is one JSON array) or `:batchEmbedContents`. */
export function geminiMethod(ctx: Pick<AdapterContext, "mode" | "stream">): string {
  if (ctx.mode === "embeddings") return ":batchEmbedContents";
  return ctx.stream ? ":streamGenerateContent?alt=sse" : ":generateContent";
}

/** The JSON body of a chat or embeddings call (Vertex sends the same). */
export function geminiBody(ctx: AdapterContext): string {
  if (ctx.mode === "embeddings") return JSON.stringify(toGeminiEmbedRequest(ctx.body, ctx.upstreamModel).request);
  if (ctx.mode !== "chat") throw new ChannelConfigError(`渠道 #${ctx.channel.id}（Gemini）不支持此接口`);
  return JSON.stringify(toGeminiRequest(ctx.body));
}

/** Non-stream Gemini replies (chat or embeddings) → OpenAI bodies; shared with Vertex. */
export function convertGeminiResponse(ctx: AdapterContext, raw: Buffer): ReturnType<Adapter["convertResponse"]> {
  const text = raw.toString("utf8");
  try {
    const json = JSON.parse(text) as unknown;
    if (ctx.mode === "embeddings") {
      const prompt = toGeminiEmbedRequest(ctx.body, ctx.upstreamModel).texts.reduce((sum, t) => sum + countText(t), 0);
      const body = toOpenAiEmbeddings(
        json as { embeddings?: { values?: unknown }[] },
        ctx.requestModel,
        prompt,
        ctx.body,
      );
      return { body: JSON.stringify(body), usage: { prompt_tokens: prompt, completion_tokens: 0 } };
    }
    const converted = toOpenAiChatResponse(json as GeminiResponse, ctx.requestModel);
    return { body: JSON.stringify(converted.body), usage: converted.usage, usageNote: converted.usageNote };
  } catch {
    return { body: text };
  }
}

/**
 * Google Gemini (type 24): OpenAI chat and embeddings in, the Generative Language API upstream.
 * The key goes in `x-goog-api-key`, never in the URL (URLs end up in logs).
 */
export const geminiAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx): UpstreamRequest {
    const base = (ctx.channel.base_url || GEMINI_DEFAULT_BASE).replace(/\/+$/, "");
    const url = `${base}/${geminiApiVersion(ctx.channel.other)}/models/${modelSegment(ctx.upstreamModel)}${geminiMethod(ctx)}`;
    const headers: Record<string, string> = { "Content-Type": "application/json", "x-goog-api-key": ctx.key };
    if (ctx.stream) headers.Accept = "text/event-stream";
    return { url, headers, body: geminiBody(ctx) };
  },
  convertResponse: convertGeminiResponse,
  createStreamTranslator: (ctx) => createGeminiStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseGoogleError,
  // Gemini lists well under a page of 1000 models, so one page is the whole list.
  listModels: {
    request: (channel, key) => ({
      url: `${(channel.base_url || GEMINI_DEFAULT_BASE).replace(/\/+$/, "")}/${geminiApiVersion(channel.other)}/models?pageSize=1000`,
      method: "GET",
      headers: { "x-goog-api-key": key },
      body: "",
    }),
    parse: listGeminiModels,
  },
};

/** `{models:[{name:"models/gemini-…"}]}` → ids as clients name them (no `models/`), sorted. */
export function listGeminiModels(raw: string): string[] {
  const body = JSON.parse(raw) as { models?: { name?: unknown }[] };
  const names = (Array.isArray(body.models) ? body.models : [])
    .map((m) => (typeof m?.name === "string" ? m.name.replace(/^models\//, "") : ""))
    .filter(Boolean);
  return [...new Set(names)].sort();
}
