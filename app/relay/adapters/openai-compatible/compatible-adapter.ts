import { openAiPayload, usageOfReply } from "../shared/openai-payload";
import { clientWantsUsage } from "../shared/client-usage";
import { parseOpenAiError } from "../shared/openai-errors";
import { createOpenAiStreamTranslator } from "../shared/openai-stream";
import { channelBase, requireMode } from "../shared/channel-base";
import type { Adapter, AdapterContext, ChannelAddress, RelayMode, UpstreamError, UpstreamRequest } from "../types";
import { listOpenAiModels } from "../shared/list-models";

export type CompatibleOptions = {
  defaultBase: string;
  /** The client's path (/v1/chat/completions) → the provider's, when it is not served under /v1. */
  mapPath?: (path: string, ctx: AdapterContext) => string;
  /** The provider's model list path relative to the base (default /v1/models); null: it lists none. */
  modelsPath?: ((channel: ChannelAddress) => string) | null;
  /** The endpoints the provider serves (default: all). */
  modes?: readonly RelayMode[];
  name?: string;
  streamUsage?: boolean;
  parseError?: (status: number, text: string) => UpstreamError;
};

/** `/v1/chat/completions` → `{prefix}/chat/completions`: providers that serve the OpenAI wire under another version prefix. */
export const underPrefix = (prefix: string) => (path: string) => path.replace(/^\/v1(?=\/)/, prefix);

/**
 * Providers that speak the OpenAI wire at their own paths (VolcEngine's /api/v3, Perplexity's
 * unversioned root, Cloudflare's account path…): the body and replies pass through as for
 * OpenAI; only the URL, the served endpoints and the error shape are the provider's.
 */
export function createCompatibleAdapter(options: CompatibleOptions): Adapter {
  const streamUsage = options.streamUsage ?? true;
  const modelsPath = options.modelsPath === undefined ? () => "/v1/models" : options.modelsPath;
  return {
    streamUsage,
    buildRequest(ctx): UpstreamRequest {
      if (options.modes) requireMode(ctx, options.modes, options.name ?? "该");
      const base = channelBase(ctx.channel, options.defaultBase);
      const path = options.mapPath ? options.mapPath(ctx.path, ctx) : ctx.path;
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        Authorization: `Bearer ${ctx.key}`,
      };
      if (ctx.stream) headers.Accept = "text/event-stream";
      return { url: `${base}${path}`, headers, body: openAiPayload(ctx, streamUsage) };
    },
    convertResponse: (_ctx, raw) => ({ body: raw, ...usageOfReply(raw) }),
    createStreamTranslator: (ctx) => createOpenAiStreamTranslator(clientWantsUsage(ctx)),
    parseError: options.parseError ?? parseOpenAiError,
    listModels: modelsPath
      ? {
          request: (channel, key) => ({
            url: `${channelBase(channel, options.defaultBase)}${modelsPath(channel)}`,
            method: "GET",
            headers: { Authorization: `Bearer ${key}` },
            body: "",
          }),
          parse: listOpenAiModels,
        }
      : undefined,
  };
}
