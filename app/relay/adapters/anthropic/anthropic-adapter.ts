import { clientWantsUsage } from "../shared/client-usage";
import type { Adapter } from "../types";
import { parseAnthropicError } from "./errors";
import { toAnthropicRequest } from "./convert-request";
import { toOpenAiResponse, type AnthropicMessage } from "./convert-response";
import { createAnthropicStreamTranslator } from "./convert-stream";

const ANTHROPIC_VERSION = "2023-06-01";

/** A Messages reply → the OpenAI chat reply (Claude direct, on Bedrock and on Vertex answer the same body). */
export const convertAnthropicResponse: Adapter["convertResponse"] = (ctx, raw) => {
  const text = raw.toString("utf8");
  try {
    const converted = toOpenAiResponse(JSON.parse(text) as AnthropicMessage, ctx.requestModel);
    return { body: JSON.stringify(converted.body), usage: converted.usage, usageNote: converted.usageNote };
  } catch {
    return { body: text };
  }
};

/** Anthropic Claude (type 14): OpenAI chat in, Messages API upstream, OpenAI chat out. */
export const anthropicAdapter: Adapter = {
  streamUsage: true,
  buildRequest(ctx) {
    const base = (ctx.channel.base_url || "https://api.anthropic.com").replace(/\/+$/, "");
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "x-api-key": ctx.key,
      "anthropic-version": ANTHROPIC_VERSION,
    };
    if (ctx.stream) headers.Accept = "text/event-stream";
    return {
      url: `${base}/v1/messages`,
      headers,
      body: JSON.stringify(toAnthropicRequest(ctx.body, ctx.upstreamModel)),
    };
  },
  convertResponse: convertAnthropicResponse,
  createStreamTranslator: (ctx) => createAnthropicStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseAnthropicError,
};
