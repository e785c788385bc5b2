import type { Channel } from "../../db/schema";
import { getChannel } from "~/domain/channels/channel-queries.server";
import { adapterFor } from "./adapters/registry";
import { ChannelConfigError, type ChannelAddress } from "./adapters/types";
import { guardedHttp } from "~/utils/guarded-http.server";
import { channelKeyForCall } from "~/domain/channels/channel-key.server";
import type { Result } from "~/utils/result";

/** A model list larger than this is not a model list. */
const MAX_LIST_BYTES = 4 * 1024 * 1024;

/**
 * Asks a channel's upstream for its model list, in the provider's own way (OpenAI-compatible
 * GET /v1/models, Ollama /api/tags, Cohere /v1/models…: the adapter's `listModels`). The base URL is
 * set by an admin and may point at a private host on purpose (a local Ollama or vLLM); the call
 * goes through the SSRF-guarded client, so link-local and cloud-metadata addresses are refused,
 * redirects are not followed, and the reply is bounded in time and size.
 */
export async function listUpstreamModels(
  channel: ChannelAddress,
  key: string,
  timeoutMs = 10_000,
): Promise<Result<string[]>> {
  const lister = adapterFor(channel.type).listModels;
  if (!lister) return { ok: false, message: "该渠道类型不支持获取模型列表" };
  try {
    const request = lister.request(channel, key);
    const reply = await guardedHttp(request.url, {
      method: request.method ?? "GET",
      headers: request.headers,
      timeoutMs,
      maxBytes: MAX_LIST_BYTES,
    });
    if (reply.status !== 200) return { ok: false, message: `获取模型列表失败：上游返回 ${reply.status}` };
    return { ok: true, value: lister.parse(reply.body) };
  } catch (error) {
    if (error instanceof ChannelConfigError) return { ok: false, message: `获取模型列表失败：${error.message}` };
    return { ok: false, message: `获取模型列表失败：${(error as Error).message}` };
  }
}

/** GET /api/channel/fetch_models/:id — the saved channel's list. */
export async function fetchUpstreamModels(channelId: number, timeoutMs = 10_000): Promise<Result<string[]>> {
  const channel: Channel | undefined = await getChannel(channelId);
  if (!channel) return { ok: false, message: "渠道未找到，请刷新页面后重试。" };
  return listUpstreamModels(channel, channelKeyForCall(channel), timeoutMs);
}
