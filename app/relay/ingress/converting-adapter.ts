import type { Adapter, AdapterContext, StreamStep, StreamTranslator } from "../adapters/types";
import { estimatePromptTokens } from "../request-parse";
import type { ReplyCodec } from "./types";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/**
 * Channel types whose API refuses a parameter it does not know (OpenAI's own, and Azure's
 * deployment of it): the converted request's fields with no OpenAI counterpart (`top_k`) are not
 * sent to them. OpenAI-compatible servers (vLLM, Ollama, SiliconFlow…) take them.
 */
const STRICT_OPENAI_TYPES = new Set<number>([CHANNEL_TYPE.openai, CHANNEL_TYPE.azure]);
const NOT_OPENAI_FIELDS = ["top_k"];

function forChannel(ctx: AdapterContext): AdapterContext {
  if (!STRICT_OPENAI_TYPES.has(ctx.channel.type) || !NOT_OPENAI_FIELDS.some((name) => name in ctx.body)) return ctx;
  const body = { ...ctx.body };
  for (const name of NOT_OPENAI_FIELDS) delete body[name];
  return { ...ctx, body };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The channel's own adapter, its replies converted into the client's protocol: the request and
 * errors stay the adapter's (it is sent the OpenAI chat form of the client's request); each
 * OpenAI chunk it produces becomes native frames, and a whole reply a native body.
 */
export function convertingAdapter(inner: Adapter, codec: ReplyCodec): Adapter {
  return {
    streamUsage: inner.streamUsage,
    buildRequest: (ctx) => inner.buildRequest(forChannel(ctx)),
    createStreamDecoder: inner.createStreamDecoder?.bind(inner),
    send: inner.send?.bind(inner),
    parseError: (status, text) => inner.parseError(status, text),
    convertResponse(ctx, raw) {
      const converted = inner.convertResponse(ctx, raw);
      const reply = parseObject(typeof converted.body === "string" ? converted.body : converted.body.toString("utf8"));
      if (!reply) return converted;
      return { ...converted, body: JSON.stringify(codec.convertReply(reply, converted.usage, ctx.requestModel)) };
    },
    createStreamTranslator(ctx): StreamTranslator {
      const translator = inner.createStreamTranslator(ctx);
      // The prompt's size as the gateway counts it, for protocols that state it before the reply
      // (Anthropic's message_start); the billed count follows at the end.
      const writer = codec.createStreamWriter(ctx.requestModel, estimatePromptTokens(ctx.body, "chat"));
      return {
        // The reply is whole when the channel's own protocol says so.
        ...(translator.finished ? { finished: () => translator.finished!() } : {}),
        push(event, data): StreamStep {
          const step = translator.push(event, data);
          let frames = "";
          for (const chunk of step.chunks) {
            const parsed = parseObject(chunk);
            if (parsed) frames += writer.chunk(parsed);
          }
          return { ...step, chunks: frames ? [frames] : [] };
        },
        close: (billed, error) => writer.close(billed, error),
      };
    },
  };
}
