import { clientWantsUsage } from "../shared/client-usage";
import { parseOpenAiError } from "../shared/openai-errors";
import { channelBase, requireMode } from "../shared/channel-base";
import { createNdjsonDecoder } from "../shared/ndjson-decoder";
import { randomId } from "../shared/openai-shapes";
import type { Adapter } from "../types";
import { toOllamaChat, toOllamaEmbed } from "./convert-request";
import { ollamaChatToOpenAi, ollamaEmbedToOpenAi, ollamaFailure, type OllamaChatLine } from "./convert-response";
import { createOllamaStreamTranslator } from "./convert-stream";

const DEFAULT_BASE = "http://localhost:11434";

/**
 * Ollama (type 4) on its native API: /api/chat (NDJSON stream, usage from prompt_eval_count and
 * eval_count) and /api/embed. The key is sent as Bearer (a proxy in front may check it; Ollama
 * itself ignores it).
 */
export const ollamaAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx) {
    requireMode(ctx, ["chat", "embeddings"], "Ollama");
    const base = channelBase(ctx.channel, DEFAULT_BASE);
    const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${ctx.key}` };
    if (ctx.mode === "embeddings")
      return { url: `${base}/api/embed`, headers, body: JSON.stringify(toOllamaEmbed(ctx.body, ctx.upstreamModel)) };
    return {
      url: `${base}/api/chat`,
      headers,
      body: JSON.stringify(toOllamaChat(ctx.body, ctx.upstreamModel, ctx.stream)),
    };
  },
  createStreamDecoder: () => createNdjsonDecoder(),
  convertResponse(ctx, raw) {
    let reply: OllamaChatLine;
    try {
      reply = JSON.parse(raw.toString("utf8")) as OllamaChatLine;
    } catch {
      return { body: raw };
    }
    const failure = ollamaFailure(reply);
    if (failure) return { body: raw, failure };
    if (ctx.mode === "embeddings") return ollamaEmbedToOpenAi(reply, ctx.requestModel, ctx.body.encoding_format);
    return ollamaChatToOpenAi(reply, ctx.requestModel, randomId("chatcmpl-"));
  },
  createStreamTranslator: (ctx) => createOllamaStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseOpenAiError,
  listModels: {
    request: (channel, key) => ({
      url: `${channelBase(channel, DEFAULT_BASE)}/api/tags`,
      method: "GET",
      headers: { Authorization: `Bearer ${key}` },
      body: "",
    }),
    parse: (raw) => {
      const body = JSON.parse(raw) as { models?: { name?: unknown; model?: unknown }[] };
      return [
        ...new Set(
          (body.models ?? []).map((m) => m?.name ?? m?.model).filter((n): n is string => typeof n === "string"),
        ),
      ].sort();
    },
  },
};
