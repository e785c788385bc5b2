import { convertAnthropicResponse } from "../anthropic/anthropic-adapter";
import { toAnthropicRequest } from "../anthropic/convert-request";
import { createAnthropicStreamTranslator } from "../anthropic/convert-stream";
import { parseAnthropicError } from "../anthropic/errors";
import { convertGeminiResponse, geminiBody, geminiMethod, modelSegment } from "../gemini/gemini-adapter";
import { createGeminiStreamTranslator } from "../gemini/convert-stream";
import { parseGoogleError } from "../gemini/errors";
import { clientWantsUsage } from "../shared/client-usage";
import { ChannelConfigError, type Adapter, type AdapterContext, type UpstreamRequest } from "../types";
import { accessToken } from "./access-token.server";
import { toOpenAiFromVertexEmbeddings, toVertexEmbedRequest } from "./embeddings";
import { serviceAccountOf, vertexRegion } from "./service-account";

export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

export const isClaudeModel = (model: string) => model.startsWith("claude");

/** Vertex names Claude versions with `@` (claude-3-5-sonnet@20240620); the dated Anthropic id is accepted too. */
export function vertexClaudeModel(model: string): string {
  return model.includes("@") ? model : model.replace(/-(\d{8})$/, "@$1");
}

/** The regional endpoint, or the channel's base URL in its place (a proxy, or the tests' mock). */
export function vertexHost(baseUrl: string, region: string): string {
  if (baseUrl) return baseUrl.replace(/\/+$/, "");
  return region === "global" ? "https://aiplatform.googleapis.com" : `https://${region}-aiplatform.googleapis.com`;
}

/** The Anthropic Messages body Vertex takes: no `model` (it is in the URL), `anthropic_version` in the body. */
export function vertexClaudeBody(
  body: Record<string, unknown>,
  model: string,
  stream: boolean,
): Record<string, unknown> {
  const { model: _model, ...rest } = toAnthropicRequest({ ...body, stream }, model);
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
}

export function vertexUrl(ctx: AdapterContext, projectId: string): string {
  const region = vertexRegion(
    ctx.channel.other,
    ctx.upstreamModel,
    isClaudeModel(ctx.upstreamModel) ? vertexClaudeModel(ctx.upstreamModel) : ctx.upstreamModel,
  );
  const prefix = `${vertexHost(ctx.channel.base_url, region)}/v1/projects/${encodeURIComponent(projectId)}/locations/${region}/publishers`;
  if (isClaudeModel(ctx.upstreamModel)) {
    if (ctx.mode !== "chat") throw new ChannelConfigError(`渠道 #${ctx.channel.id}（Vertex AI Claude）只支持对话`);
    return `${prefix}/anthropic/models/${modelSegment(vertexClaudeModel(ctx.upstreamModel)).replaceAll("%40", "@")}:${ctx.stream ? "streamRawPredict" : "rawPredict"}`;
  }
  const method = ctx.mode === "embeddings" ? ":predict" : geminiMethod(ctx);
  return `${prefix}/google/models/${modelSegment(ctx.upstreamModel)}${method}`;
}

/**
 * Vertex AI (type 41): the key is a service-account JSON exchanged for an OAuth token (cached);
 * Gemini models speak the Gemini body, Claude models the Anthropic Messages body through
 * rawPredict / streamRawPredict (both reuse their provider's converters); embeddings go to
 * `:predict` (Vertex has no batchEmbedContents).
 */
export const vertexAdapter: Adapter = {
  streamUsage: false,
  async buildRequest(ctx): Promise<UpstreamRequest> {
    const account = serviceAccountOf(ctx.key);
    const url = vertexUrl(ctx, account.projectId);
    const claude = isClaudeModel(ctx.upstreamModel);
    const body = claude
      ? JSON.stringify(vertexClaudeBody(ctx.body, ctx.upstreamModel, ctx.stream))
      : ctx.mode === "embeddings"
        ? JSON.stringify(toVertexEmbedRequest(ctx.body))
        : geminiBody(ctx);
    const token = await accessToken(account);
    const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
    if (ctx.stream) headers.Accept = "text/event-stream";
    return { url, headers, body };
  },
  convertResponse(ctx, raw) {
    const text = raw.toString("utf8");
    if (ctx.mode === "embeddings") {
      try {
        const converted = toOpenAiFromVertexEmbeddings(
          JSON.parse(text) as Parameters<typeof toOpenAiFromVertexEmbeddings>[0],
          ctx.requestModel,
          ctx.body,
        );
        return { body: JSON.stringify(converted.body), usage: converted.usage, usageNote: converted.usageNote };
      } catch {
        return { body: text };
      }
    }
    return isClaudeModel(ctx.upstreamModel) ? convertAnthropicResponse(ctx, raw) : convertGeminiResponse(ctx, raw);
  },
  createStreamTranslator: (ctx) =>
    isClaudeModel(ctx.upstreamModel)
      ? createAnthropicStreamTranslator(ctx.requestModel, clientWantsUsage(ctx))
      : createGeminiStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  // Vertex answers in Google's error shape; a Claude model's own errors come in Anthropic's.
  parseError(status, text) {
    const google = parseGoogleError(status, text);
    return google.code === "bad_response_status_code" ? parseAnthropicError(status, text) : google;
  },
};
