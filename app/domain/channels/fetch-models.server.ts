import { decryptSecret } from "~/utils/secrets.server";
import { getChannelType } from "./catalog";
import { getChannel } from "./channels.server";

export type FetchModelsResult = { ok: true; value: string[] } | { ok: false; message: string };

/**
 * Asks an OpenAI-type channel's upstream for its model list (GET {base}/v1/models). The base
 * URL is set by an admin and may point at a private host on purpose (a local Ollama or vLLM),
 * so it is not run through the user-URL SSRF guard; it is bounded by a timeout instead.
 */
export async function fetchUpstreamModels(channelId: number, timeoutMs = 10_000): Promise<FetchModelsResult> {
  const channel = await getChannel(channelId);
  if (!channel) return { ok: false, message: "渠道未找到，请刷新页面后重试。" };
  if (channel.type !== 1) return { ok: false, message: "仅支持 OpenAI 接口格式" };
  const base = channel.base_url || getChannelType(1)!.defaultBaseUrl;
  try {
    const response = await fetch(`${base}/v1/models`, {
      headers: { Authorization: `Bearer ${decryptSecret(channel.key_encrypted)}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return { ok: false, message: `获取模型列表失败：上游返回 ${response.status}` };
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === "string");
    return { ok: true, value: [...new Set(ids)].sort() };
  } catch (error) {
    return { ok: false, message: `获取模型列表失败：${(error as Error).message}` };
  }
}
