import { ChannelConfigError, type Adapter, type AdapterContext, type UpstreamRequest } from "../types";
import { parseOpenAiError } from "../shared/openai-errors";
import { createOpenAiStreamTranslator } from "../shared/openai-stream";
import { listOpenAiModels } from "../shared/list-models";
import { openAiPayload, usageOfReply } from "../shared/openai-payload";
import { channelBase } from "../shared/channel-base";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";
import { clientWantsUsage } from "../shared/client-usage";

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
