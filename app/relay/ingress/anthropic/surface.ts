import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { adapterFor } from "../../adapters/registry";
import { MAX_ID } from "~/utils/edge-input";
import { checkRelayFields } from "../../request-parse";
import { localFailure } from "../../relay-error";
import { convertingAdapter } from "../converting-adapter";
import { parseNativeJson } from "../native-json";
import type { IngressSurface } from "../types";
import { sendAnthropicError } from "./errors";
import { anthropicPassThrough } from "./pass-through";
import { anthropicReplyCodec } from "./reply-codec";
import { anthropicToOpenAi } from "./to-openai";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/** Channel types that speak the Messages API themselves: the client's body goes there as it is. */
const MESSAGES_NATIVE_TYPES = new Set<number>([CHANNEL_TYPE.anthropic]);

/** The fields the gateway reads before relaying; the rest is the upstream's to judge. */
const messagesFields = z.object({
  model: z.string().min(1).max(256),
  max_tokens: z.number().int().min(1).max(MAX_ID),
  messages: z.array(z.unknown()),
  stream: z.boolean().nullish(),
});

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value ? value : undefined;
}

/** Anthropic Messages `POST /v1/messages`: the key in `x-api-key` (as the SDK sends it) or as a Bearer token. */
export const anthropicSurface: IngressSurface = {
  credential(req) {
    const apiKey = header(req, "x-api-key");
    return apiKey ? `Bearer ${apiKey}` : header(req, "authorization");
  },
  parse(raw, _match, req) {
    const parsed = parseNativeJson(raw);
    if ("failure" in parsed) return parsed;
    const fields = messagesFields.safeParse(parsed.body);
    if (!fields.success)
      return {
        failure: localFailure(
          400,
          `无效的参数: ${fields.error.issues[0]?.path.join(".") ?? ""}`,
          "invalid_request",
          "invalid_request_error",
        ),
      };
    const body = anthropicToOpenAi(parsed.body);
    const failure = checkRelayFields(body, "chat");
    if (failure) return { failure };
    const client = { version: header(req, "anthropic-version"), beta: header(req, "anthropic-beta") };
    return {
      body,
      ingress: {
        adapterFor: (type) =>
          MESSAGES_NATIVE_TYPES.has(type)
            ? anthropicPassThrough(parsed.body, raw, client)
            : convertingAdapter(adapterFor(type), anthropicReplyCodec),
      },
    };
  },
  sendError: sendAnthropicError,
};
