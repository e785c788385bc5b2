import type { IncomingMessage } from "node:http";
import { adapterFor } from "../../adapters/registry";
import { localFailure } from "../../relay-error";
import { checkRelayFields } from "../../request-parse";
import { convertingAdapter } from "../converting-adapter";
import { isObject } from "../json-shape";
import { parseNativeJson } from "../native-json";
import type { IngressSurface } from "../types";
import { sendGeminiError } from "./errors";
import { geminiPassThrough } from "./pass-through";
import { geminiReplyCodec } from "./reply-codec";
import { geminiToOpenAi, wantsThoughts } from "./to-openai";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/** Channel types that speak generateContent themselves. */
const GEMINI_NATIVE_TYPES = new Set<number>([CHANNEL_TYPE.gemini]);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value ? value : undefined;
}

/**
 * Gemini `POST /v1beta/models/{model}:generateContent|streamGenerateContent`: the key in
 * `x-goog-api-key` (as the SDK sends it) or the `key` query parameter; a Bearer token works too.
 */
export const geminiSurface: IngressSurface = {
  credential(req, url) {
    const key = header(req, "x-goog-api-key") ?? (url.searchParams.get("key") || undefined);
    return key ? `Bearer ${key}` : header(req, "authorization");
  },
  parse(raw, match) {
    const parsed = parseNativeJson(raw);
    if ("failure" in parsed) return parsed;
    if (parsed.body.contents !== undefined && !Array.isArray(parsed.body.contents))
      return { failure: localFailure(400, "无效的参数: contents", "invalid_request", "invalid_request_error") };
    const config = parsed.body.generationConfig ?? parsed.body.generation_config;
    if (config !== undefined && !isObject(config))
      return { failure: localFailure(400, "无效的参数: generationConfig", "invalid_request", "invalid_request_error") };
    const body = geminiToOpenAi(parsed.body, match.model ?? "", match.stream === true);
    const failure = checkRelayFields(body, "chat");
    if (failure) return { failure };
    const codec = geminiReplyCodec({ thoughts: wantsThoughts(parsed.body) });
    return {
      body,
      ingress: {
        adapterFor: (type) =>
          GEMINI_NATIVE_TYPES.has(type) ? geminiPassThrough(raw) : convertingAdapter(adapterFor(type), codec),
      },
    };
  },
  sendError: sendGeminiError,
};
