import { clientWantsUsage } from "../shared/client-usage";
import { parseOpenAiError } from "../shared/openai-errors";
import { channelBase, requireMode } from "../shared/channel-base";
import { createNdjsonDecoder } from "../shared/ndjson-decoder";
import type { Adapter, UpstreamError } from "../types";
import { toCohereChat, toCohereRerank } from "./convert-request";
import { cohereChatToOpenAi, cohereRerankToGateway, type CohereChatReply } from "./convert-response";
import { createCohereStreamTranslator } from "./convert-stream";

const DEFAULT_BASE = "https://api.cohere.ai";

/** Cohere errors are `{"message":"…"}`; an invalid key (401) is an authentication error. */
export function parseCohereError(status: number, text: string): UpstreamError {
  const error = parseOpenAiError(status, text);
  return status === 401 && error.type === "upstream_error" ? { ...error, type: "authentication_error" } : error;
}

/** Cohere (type 34): chat v1 (/v1/chat, NDJSON stream) and rerank (/v1/rerank), Bearer key. */
export const cohereAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx) {
    requireMode(ctx, ["chat", "rerank"], "Cohere");
    const base = channelBase(ctx.channel, DEFAULT_BASE);
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/json",
      Authorization: `Bearer ${ctx.key}`,
    };
    if (ctx.mode === "rerank")
      return { url: `${base}/v1/rerank`, headers, body: JSON.stringify(toCohereRerank(ctx.body, ctx.upstreamModel)) };
    return {
      url: `${base}/v1/chat`,
      headers,
      body: JSON.stringify(toCohereChat(ctx.body, ctx.upstreamModel, ctx.stream)),
    };
  },
  createStreamDecoder: () => createNdjsonDecoder(),
  convertResponse(ctx, raw) {
    try {
      const json = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      if (ctx.mode === "rerank") return { body: cohereRerankToGateway(json, ctx.body) };
      return cohereChatToOpenAi(json as CohereChatReply, ctx.requestModel);
    } catch {
      return { body: raw };
    }
  },
  createStreamTranslator: (ctx) => createCohereStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseCohereError,
  listModels: {
    request: (channel, key) => ({
      url: `${channelBase(channel, DEFAULT_BASE)}/v1/models?page_size=1000`,
      method: "GET",
      headers: { Authorization: `Bearer ${key}` },
      body: "",
    }),
    parse: (raw) => {
      const body = JSON.parse(raw) as { models?: { name?: unknown }[] };
      return [
        ...new Set((body.models ?? []).map((m) => m?.name).filter((n): n is string => typeof n === "string")),
      ].sort();
    },
  },
};
