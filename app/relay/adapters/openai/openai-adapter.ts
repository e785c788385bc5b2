import { parseOpenAiUsage, type ParsedUsage } from "../../billing/usage-parse";
import { ChannelConfigError, type Adapter, type AdapterContext, type UpstreamRequest } from "../types";
import { parseOpenAiError } from "./openai-errors";
import { createOpenAiStreamTranslator } from "./openai-stream";
import { listOpenAiModels } from "../openai-compatible/list-models";
import { channelBase } from "../shared/channel-base";
import { insertMember, setMember } from "../../json-edit";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";
import { clientWantsUsage } from "../shared/client-usage";

/** The body sent upstream: the client's JSON with the mapped model and, for streams, usage asked for. */
function openAiBody(ctx: AdapterContext, askUsage: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { ...ctx.body };
  if ("model" in body || ctx.mode !== "images") body.model = ctx.upstreamModel;
  if (ctx.stream && askUsage && (ctx.mode === "chat" || ctx.mode === "completions")) {
    const options =
      typeof body.stream_options === "object" && body.stream_options
        ? (body.stream_options as Record<string, unknown>)
        : {};
    body.stream_options = { ...options, include_usage: true };
  }
  return body;
}

/**
 * What goes upstream: the client's own bytes, with only the fields the gateway changes edited in
 * place (the mapped model; the usage a stream is asked for), so every number and unknown field
 * arrives as the client wrote it and a long chat history is not re-serialised on every call.
 * Built from the parsed body only when there are no client bytes to edit.
 */
export function openAiPayload(ctx: AdapterContext, askUsage: boolean): string | Buffer {
  // An empty body parsed as {}: that is what goes up.
  let raw = ctx.rawJson?.length ? ctx.rawJson : undefined;
  if (raw && ctx.body.model !== ctx.upstreamModel && ("model" in ctx.body || ctx.mode !== "images"))
    raw = setMember(raw, ["model"], JSON.stringify(ctx.upstreamModel));
  if (raw && ctx.stream && askUsage && (ctx.mode === "chat" || ctx.mode === "completions") && !clientWantsUsage(ctx)) {
    // Absent from the parse, the member is added without scanning a long body for it.
    raw =
      "stream_options" in ctx.body
        ? setMember(raw, ["stream_options", "include_usage"], "true")
        : insertMember(raw, "stream_options", '{"include_usage":true}');
  }
  return raw ?? JSON.stringify(openAiBody(ctx, askUsage));
}

/** The usage of an OpenAI-shaped reply object, checked (usage-parse): a bad count is "no usage" with a warning. */
export function usageOf(json: unknown): ParsedUsage {
  return parseOpenAiUsage(json && typeof json === "object" ? (json as { usage?: unknown }).usage : undefined);
}

const USAGE_KEY = Buffer.from('"usage"');

/**
 * The top-level `usage` of an OpenAI-shaped reply, read from the reply's tail where OpenAI puts
 * it, so a long answer (or an embeddings reply of thousands of numbers) is not parsed whole just
 * to bill it. The last `"usage"` key is a top-level key exactly when `{` + the rest of the reply
 * parses (a nested one leaves unbalanced closing brackets, and one inside a string would be
 * escaped); anything else falls back to parsing the whole reply.
 */
export function usageOfReply(raw: Buffer): ParsedUsage {
  const at = raw.lastIndexOf(USAGE_KEY);
  if (at < 0) return {};
  try {
    return usageOf(JSON.parse(`{${raw.toString("utf8", at)}`));
  } catch {
    try {
      return usageOf(JSON.parse(raw.toString("utf8")));
    } catch {
      return {};
    }
  }
}

// Per loaded channel row: its base URL without trailing slashes, and the URLs built from it by path.
const channelUrls = new WeakMap<AdapterContext["channel"], Map<string, string>>();

/** Base URL rules: type 8 (custom) may carry `{model}` and is used verbatim. */
export function upstreamUrl(ctx: AdapterContext, defaultBase: string): string {
  let byPath = channelUrls.get(ctx.channel);
  let url = byPath?.get(ctx.path);
  if (url !== undefined) return url;
  const base = (ctx.channel.base_url || defaultBase).replace(/\/+$/, "");
  if (!base) throw new ChannelConfigError(`渠道 #${ctx.channel.id} 未设置 Base URL`);
  if (ctx.channel.type === CHANNEL_TYPE.custom && base.includes("{model}"))
    return base.replaceAll("{model}", ctx.upstreamModel);
  url = `${base}${ctx.path}`;
  if (!byPath) channelUrls.set(ctx.channel, (byPath = new Map()));
  byPath.set(ctx.path, url);
  return url;
}

/**
 * The OpenAI-compatible base: OpenAI itself and every provider that speaks its wire (Ollama's
 * /v1, Moonshot, 01.AI, SiliconCloud, MiniMax, custom…). Streams ask for usage so billing is exact.
 */
export function createOpenAiAdapter(defaultBase: string, streamUsage = true): Adapter {
  return {
    streamUsage,
    buildRequest(ctx): UpstreamRequest {
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        Authorization: `Bearer ${ctx.key}`,
      };
      if (ctx.channel.openai_organization) headers["OpenAI-Organization"] = ctx.channel.openai_organization;
      if (ctx.stream) headers.Accept = "text/event-stream";
      return { url: upstreamUrl(ctx, defaultBase), headers, body: openAiPayload(ctx, streamUsage) };
    },
    // The reply goes to the client as the upstream's bytes, never decoded and re-encoded.
    convertResponse: (_ctx, raw) => ({ body: raw, ...usageOfReply(raw) }),
    createStreamTranslator: (ctx) => createOpenAiStreamTranslator(clientWantsUsage(ctx)),
    parseError: parseOpenAiError,
    listModels: {
      request: (channel, key) => ({
        url: `${channelBase(channel, defaultBase)}/v1/models`,
        method: "GET",
        headers: { Authorization: `Bearer ${key}` },
        body: "",
      }),
      parse: listOpenAiModels,
    },
  };
}
