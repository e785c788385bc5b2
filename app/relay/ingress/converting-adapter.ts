import type { Adapter, StreamStep, StreamTranslator } from "../adapters/types";
import type { ReplyCodec } from "./types";

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
    buildRequest: (ctx) => inner.buildRequest(ctx),
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
      const writer = codec.createStreamWriter(ctx.requestModel);
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
