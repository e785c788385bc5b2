import type { Channel } from "../../db/schema";
import { getChannelType } from "~/domain/channels/catalog";
import { getDb } from "~/utils/db.server";
import { guardedHttp } from "~/utils/guarded-http.server";
import { BALANCE_PROVIDERS, BalanceReadError, type BalanceGet } from "./balance-providers";
import { channelKeyForCall } from "~/domain/channels/channel-key.server";
import type { Result } from "~/utils/result";

/** The balance read, or why it could not be. */
export type BalanceResult = Result<number>;

export const BALANCE_UNSUPPORTED_MESSAGE = "该渠道类型不支持余额查询";
const BALANCE_TIMEOUT_MS = 15_000;
const BALANCE_MAX_BYTES = 256 * 1024;

/** One GET of a balance endpoint through the SSRF-guarded client: bounded in time and size, no redirects. */
const getJson: BalanceGet = async (url, headers) => {
  const reply = await guardedHttp(url, {
    method: "GET",
    headers,
    timeoutMs: BALANCE_TIMEOUT_MS,
    maxBytes: BALANCE_MAX_BYTES,
  });
  if (reply.status !== 200) throw new BalanceReadError(`上游返回 ${reply.status}`);
  try {
    return JSON.parse(reply.body) as unknown;
  } catch {
    throw new BalanceReadError("上游返回的不是 JSON");
  }
};

/**
 * A channel's remaining credit from its provider's balance endpoint (OpenAI's billing endpoints,
 * SiliconCloud, DeepSeek, OpenRouter, Moonshot, AIProxy, API2GPT, AIGC2D). The number is the
 * provider's: untrusted, so anything not a finite amount of sane size is refused, not stored.
 */
export async function refreshChannelBalance(channel: Channel): Promise<BalanceResult> {
  const provider = BALANCE_PROVIDERS.get(channel.type);
  if (!provider) return { ok: false, message: BALANCE_UNSUPPORTED_MESSAGE };
  const base = (channel.base_url || getChannelType(channel.type)?.defaultBaseUrl || "").replace(/\/+$/, "");
  if (!base) return { ok: false, message: "余额查询失败：未设置 Base URL" };
  try {
    const balance = await provider(base, channelKeyForCall(channel), getJson);
    const db = await getDb();
    await db
      .updateTable("channels")
      .set({ balance, balance_updated_time: Math.floor(Date.now() / 1000) })
      .where("id", "=", channel.id)
      .execute();
    return { ok: true, value: balance };
  } catch (error) {
    return { ok: false, message: `余额查询失败：${(error as Error).message}` };
  }
}
