import type { Channel } from "../../db/schema";
import { getChannelType } from "~/domain/channels/catalog";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { decryptSecret } from "~/utils/secrets.server";
import { readAll, sendUpstream } from "./upstream-client.server";

export type BalanceResult = { ok: true; balance: number } | { ok: false; message: string };

async function getJson(url: string, key: string): Promise<Record<string, unknown>> {
  const res = await sendUpstream(url, { method: "GET", headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(15_000), connectTimeoutMs: env.RELAY_CONNECT_TIMEOUT * 1000 });
  const text = (await readAll(res)).toString("utf8");
  if (res.statusCode !== 200) throw new Error(`上游返回 ${res.statusCode}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Remaining credit of an OpenAI-compatible channel from the old billing endpoints (hard limit
 * minus this month's usage, USD). Other providers have no such endpoint: a clear refusal.
 */
export async function refreshChannelBalance(channel: Channel): Promise<BalanceResult> {
  if (channel.type !== 1 && channel.type !== 8) return { ok: false, message: "尚未实现该渠道类型的余额查询" };
  const base = (channel.base_url || getChannelType(channel.type)?.defaultBaseUrl || "").replace(/\/+$/, "");
  const key = decryptSecret(channel.key_encrypted);
  try {
    const subscription = await getJson(`${base}/v1/dashboard/billing/subscription`, key);
    const now = new Date();
    const start = new Date(now.getFullYear(), now.getMonth(), 1).toISOString().slice(0, 10);
    const end = new Date(now.getTime() + 86400000).toISOString().slice(0, 10);
    const usage = await getJson(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`, key);
    const balance = Number(subscription.hard_limit_usd ?? 0) - Number(usage.total_usage ?? 0) / 100;
    const db = await getDb();
    await db.updateTable("channels").set({ balance, balance_updated_time: Math.floor(Date.now() / 1000) }).where("id", "=", channel.id).execute();
    return { ok: true, balance };
  } catch (error) {
    return { ok: false, message: `余额查询失败：${(error as Error).message}` };
  }
}
