import { getChannelType } from "~/domain/channels/catalog";
import { adapterFor } from "../../adapters/registry";
import { sendRelayError } from "../../errors.server";
import { localFailure } from "../../relay-error";
import { checkRelayFields } from "../../request-parse";
import { convertingAdapter } from "../converting-adapter";
import { parseNativeJson } from "../native-json";
import type { IngressSurface } from "../types";
import { responsesPassThrough } from "./pass-through";
import { responsesReplyCodec } from "./reply-codec";
import { responsesToOpenAi } from "./to-openai";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/**
 * Channel types known to serve `/v1/responses` themselves: OpenAI (1) and custom (8), which is
 * an OpenAI-style endpoint by definition. The OpenAI-compatible rest (DeepSeek, Moonshot…)
 * serve only chat completions, so they get the request converted.
 */
const RESPONSES_NATIVE_TYPES = new Set<number>([CHANNEL_TYPE.openai, CHANNEL_TYPE.custom]);

/** OpenAI Responses `POST /v1/responses`: a Bearer key, and errors in the OpenAI shape. */
export const responsesSurface: IngressSurface = {
  credential: (req) => req.headers.authorization,
  parse(raw) {
    const parsed = parseNativeJson(raw);
    if ("failure" in parsed) return parsed;
    const native = parsed.body;
    if (typeof native.input !== "string" && !Array.isArray(native.input))
      return { failure: localFailure(400, "无效的参数: input", "invalid_request", "invalid_request_error") };
    const fieldFailure = checkRelayFields(native, "chat");
    if (fieldFailure) return { failure: fieldFailure };
    const body = responsesToOpenAi(native);
    const failure = checkRelayFields(body, "chat");
    if (failure) return { failure };
    return {
      body,
      ingress: {
        adapterFor: (type) =>
          RESPONSES_NATIVE_TYPES.has(type)
            ? responsesPassThrough(native, raw, getChannelType(type)?.defaultBaseUrl ?? "")
            : convertingAdapter(adapterFor(type), responsesReplyCodec),
      },
    };
  },
  sendError: sendRelayError,
};
