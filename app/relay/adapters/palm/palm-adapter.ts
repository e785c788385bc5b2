import { parseGoogleError } from "../gemini/errors";
import { ChannelConfigError, type Adapter, type UpstreamRequest } from "../types";
import {
  createPalmStreamTranslator,
  createWholeBodyDecoder,
  palmModel,
  toOpenAiFromPalm,
  toPalmRequest,
  type PalmReply,
} from "./convert";

const PALM_DEFAULT_BASE = "https://generativelanguage.googleapis.com";

/** Google PaLM 2 (type 11): chat through v1beta2 generateMessage, key in x-goog-api-key. */
export const palmAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx): UpstreamRequest {
    if (ctx.mode !== "chat") throw new ChannelConfigError(`渠道 #${ctx.channel.id}（PaLM）只支持对话`);
    const base = (ctx.channel.base_url || PALM_DEFAULT_BASE).replace(/\/+$/, "");
    return {
      url: `${base}/v1beta2/models/${encodeURIComponent(palmModel(ctx.upstreamModel))}:generateMessage`,
      headers: { "Content-Type": "application/json", "x-goog-api-key": ctx.key },
      body: JSON.stringify(toPalmRequest(ctx.body)),
    };
  },
  // PaLM does not stream: a streamed request's JSON reply is read whole as one event.
  createStreamDecoder: () => createWholeBodyDecoder(),
  convertResponse(ctx, raw) {
    const text = raw.toString("utf8");
    try {
      // No usage in PaLM replies: the pipeline counts the prompt and the reply.
      return { body: JSON.stringify(toOpenAiFromPalm(JSON.parse(text) as PalmReply, ctx.requestModel)) };
    } catch {
      return { body: text };
    }
  },
  createStreamTranslator: (ctx) => createPalmStreamTranslator(ctx.requestModel),
  parseError: parseGoogleError,
};
