import { openAiPayload, usageOfReply } from "../shared/openai-payload";
import { clientWantsUsage } from "../shared/client-usage";
import { createOpenAiStreamTranslator } from "../shared/openai-stream";
import { encodeEmbedding } from "../shared/openai-shapes";
import { sendLiftingErrors } from "../shared/transport";
import { ChannelConfigError, type Adapter, type AdapterContext } from "../types";
import { zhipuToken } from "./zhipu-jwt";
import { parseZhipuError, zhipuV3ErrorStatus } from "./zhipu-errors";
import {
  createZhipuV3Decoder,
  createZhipuV3StreamTranslator,
  fromZhipuV3Response,
  toZhipuV3Request,
} from "./zhipu-v3-convert";

function baseOf(ctx: AdapterContext, fallback: string): string {
  const base = (ctx.channel.base_url || fallback).replace(/\/+$/, "");
  if (!base) throw new ChannelConfigError(`渠道 #${ctx.channel.id} 未设置 Base URL`);
  return base;
}

const DEFAULT_BASE = "https://open.bigmodel.cn";

/** Zhipu ChatGLM (type 16): the v3 model-api, the JWT as the Authorization value (no scheme). */
export const zhipuV3Adapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx) {
    if (ctx.mode !== "chat") throw new ChannelConfigError("智谱 v3 渠道只支持对话补全");
    const method = ctx.stream ? "sse-invoke" : "invoke";
    const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: zhipuToken(ctx.key) };
    if (ctx.stream) headers.Accept = "text/event-stream";
    const url = `${baseOf(ctx, DEFAULT_BASE)}/api/paas/v3/model-api/${encodeURIComponent(ctx.upstreamModel)}/${method}`;
    return { url, headers, body: JSON.stringify(toZhipuV3Request(ctx.body, ctx.stream)) };
  },
  send: (request, init) => sendLiftingErrors(request, init, zhipuV3ErrorStatus),
  createStreamDecoder: () => createZhipuV3Decoder(),
  convertResponse: (ctx, raw) => fromZhipuV3Response(raw, ctx.requestModel),
  createStreamTranslator: (ctx) => createZhipuV3StreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseZhipuError,
};

/** Zhipu ignores encoding_format and answers numbers: encoded here when the client asked for base64. */
function base64Embeddings(raw: Buffer): string | Buffer {
  try {
    const json = JSON.parse(raw.toString("utf8")) as { data?: { embedding?: unknown }[] };
    for (const item of json.data ?? []) item.embedding = encodeEmbedding(item.embedding, "base64");
    return JSON.stringify(json);
  } catch {
    return raw;
  }
}

const V4_PATHS: Record<string, string> = {
  chat: "/api/paas/v4/chat/completions",
  embeddings: "/api/paas/v4/embeddings",
};

/**
 * Zhipu GLM-4 / GLM-4V (type 26): the v4 API speaks OpenAI's chat wire under its own path with
 * the JWT as a Bearer token; replies (usage included, in the last stream chunk) pass through.
 */
export const zhipuV4Adapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx) {
    const path = V4_PATHS[ctx.mode];
    if (!path) throw new ChannelConfigError(`智谱 GLM-4 渠道不支持 ${ctx.path}`);
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Authorization: `Bearer ${zhipuToken(ctx.key)}`,
    };
    if (ctx.stream) headers.Accept = "text/event-stream";
    return { url: `${baseOf(ctx, DEFAULT_BASE)}${path}`, headers, body: openAiPayload(ctx, false) };
  },
  convertResponse(ctx, raw) {
    const billed = usageOfReply(raw);
    if (ctx.mode === "embeddings" && ctx.body.encoding_format === "base64")
      return { body: base64Embeddings(raw), ...billed };
    if (ctx.mode !== "chat") return { body: raw, ...billed };
    // Zhipu names its own model; the client is answered (and billed) under the model it asked for.
    try {
      const json = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      return {
        body: JSON.stringify({ ...json, object: json.object ?? "chat.completion", model: ctx.requestModel }),
        ...billed,
      };
    } catch {
      return { body: raw, ...billed };
    }
  },
  createStreamTranslator: (ctx) => createOpenAiStreamTranslator(clientWantsUsage(ctx)),
  parseError: parseZhipuError,
};
