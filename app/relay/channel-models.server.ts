import { getChannelType } from "~/domain/channels/catalog";
import { getChannel } from "~/domain/channels/channels.server";
import { env } from "~/utils/env.server";
import { decryptSecret } from "~/utils/secrets.server";
import { readAll, sendUpstream } from "./upstream-client.server";

export type FetchModelsResult = { ok: true; value: string[] } | { ok: false; message: string };

/**
 * Asks an OpenAI-type channel's upstream for its model list (GET {base}/v1/models). The base
 * URL is set by an admin and may point at a private host on purpose (a local Ollama or vLLM);
 * it goes through the upstream client like every call carrying a channel's key, so link-local
 * and cloud-metadata addresses are refused and redirects are not followed.
 */
export async function fetchUpstreamModels(channelId: number, timeoutMs = 10_000): Promise<FetchModelsResult> {
  const channel = await getChannel(channelId);
  if (!channel) return { ok: false, message: "渠道未找到，请刷新页面后重试。" };
  if (channel.type !== 1) return { ok: false, message: "仅支持 OpenAI 接口格式" };
  const base = (channel.base_url || getChannelType(1)!.defaultBaseUrl).replace(/\/+$/, "");
  try {
    const response = await sendUpstream(`${base}/v1/models`, {
      method: "GET",
      headers: { Authorization: `Bearer ${decryptSecret(channel.key_encrypted)}` },
      signal: AbortSignal.timeout(timeoutMs),
      connectTimeoutMs: env.RELAY_CONNECT_TIMEOUT * 1000,
    });
    const text = (await readAll(response)).toString("utf8");
    if (response.statusCode !== 200) return { ok: false, message: `获取模型列表失败：上游返回 ${response.statusCode}` };
    const body = JSON.parse(text) as { data?: { id?: unknown }[] };
    const ids = (Array.isArray(body.data) ? body.data : []).map((m) => m?.id).filter((id): id is string => typeof id === "string");
    return { ok: true, value: [...new Set(ids)].sort() };
  } catch (error) {
    return { ok: false, message: `获取模型列表失败：${(error as Error).message}` };
  }
}
