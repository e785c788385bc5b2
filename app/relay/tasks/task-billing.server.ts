import type { Channel } from "../../../db/schema";
import { options } from "~/domain/options/store.server";
import { decryptSecret } from "~/utils/secrets.server";
import { checkModelAllowed, resolveGroup, type TokenContext } from "../auth/token-auth.server";
import { adjustCachedTokenQuota } from "../auth/token-cache.server";
import { pricedModel } from "../billing/price-tables.server";
import { billingWritten, refundQuota, reserveQuota, settleQuota, type Reservation } from "../billing/quota.server";
import { localFailure, type RelayFailure } from "../relay-error";
import { routingTable, tiersIn } from "../routing/channel-cache.server";
import { pickChannel, type Tier } from "../routing/pick-channel";

/**
 * Fixed-price task actions (Midjourney, Suno): the action's ModelPrice × group ratio, held before
 * the upstream submit and charged once the upstream accepts the task (the reference charges after
 * a 200 without holding first, so a burst could overspend). A failed submit gives the hold back;
 * a task that fails later is refunded by the poller (domain/tasks).
 */
export type TaskOrder = { token: TokenContext; model: string; group: string; quota: number; logContent: string; logRatios: Record<string, number> };

export function priceTask(token: TokenContext, model: string, action: string): TaskOrder | RelayFailure {
  const refusal = checkModelAllowed(token, model);
  if (refusal) return refusal;
  const group = resolveGroup(token);
  if (typeof group !== "string") return group;
  const priced = pricedModel(model, group);
  if (!priced || priced.pricing.kind !== "price") return localFailure(400, `模型 ${model} 倍率或价格未配置，请联系管理员设置`, "model_price_error");
  const { modelPrice, groupRatio } = priced.pricing;
  return {
    token, model, group, quota: Math.round(modelPrice * groupRatio * priced.quotaPerUnit),
    logContent: `模型固定价格 ${modelPrice.toFixed(2)}，分组倍率 ${groupRatio.toFixed(2)}，操作 ${action}`,
    logRatios: { model_price: modelPrice, group_ratio: groupRatio },
  };
}

/** Holds the order's price (nothing for a free action). */
export async function holdTask(order: TaskOrder): Promise<{ reservation: Reservation | undefined } | RelayFailure> {
  if (order.quota <= 0) return { reservation: undefined };
  const { token } = order;
  const reserved = await reserveQuota({ userId: token.user.id, tokenId: token.token.id, tokenUnlimited: token.token.unlimited_quota, tokenKeyHash: token.keyHash }, order.quota);
  if (reserved.ok) return { reservation: reserved.reservation };
  if (reserved.reason === "busy") return localFailure(503, "计费服务繁忙，请稍后再试", "billing_busy");
  return reserved.reason === "user" ? localFailure(403, "用户额度不足", "insufficient_user_quota") : localFailure(403, "该令牌额度已用尽", "token_quota_exhausted");
}

export function releaseTask(hold: { reservation: Reservation | undefined }): void {
  if (hold.reservation) refundQuota(hold.reservation);
}

/**
 * Charges an accepted task with its usage log, and waits until the charge is in the database:
 * the task row is written after it, so a refund can never reach the ledger before its charge.
 */
export async function chargeTask(order: TaskOrder, hold: { reservation: Reservation | undefined }, channelId: number, meta: { requestId: string; startedAt: number; taskId: string }): Promise<number> {
  if (!hold.reservation) return 0;
  const { token } = order;
  const log = options.bool("LogConsumeEnabled")
    ? {
        username: token.user.username, tokenName: token.token.name, modelName: order.model, promptTokens: 0, completionTokens: 0,
        useTimeSeconds: Math.round((Date.now() - meta.startedAt) / 1000), isStream: false, channelId, group: order.group, content: order.logContent,
        other: { ...order.logRatios, request_id: meta.requestId, task_id: meta.taskId, admin_info: { use_channel: [String(channelId)] } },
      }
    : undefined;
  const charged = await settleQuota(hold.reservation, order.quota, channelId, log);
  if (charged) adjustCachedTokenQuota(token.keyHash, charged);
  await billingWritten(10_000);
  return charged;
}

/** Candidate channels for a task model in the token's group (or the admin's pinned channel). */
export async function taskTiers(token: TokenContext, group: string, model: string): Promise<{ tiers: Tier[]; channels: Map<number, Channel> } | RelayFailure> {
  const routing = await routingTable();
  if (token.pinnedChannelId) {
    const pinned = routing.channels.get(token.pinnedChannelId);
    if (!pinned || pinned.status !== 1) return localFailure(403, "该渠道已被禁用", "channel_disabled");
    return { tiers: [{ priority: pinned.priority, channels: [{ id: pinned.id, weight: pinned.weight, priority: pinned.priority }] }], channels: routing.channels };
  }
  const tiers = tiersIn(routing, group, model);
  if (tiers.length === 0) return localFailure(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, "model_not_available");
  return { tiers, channels: routing.channels };
}

export { pickChannel };

/** The channel's base URL without trailing slashes, or undefined when it has none (never another host). */
export function channelBase(channel: Channel): string | undefined {
  const base = (channel.base_url ?? "").trim().replace(/\/+$/, "");
  return /^https?:\/\//i.test(base) ? base : undefined;
}

/** The channel's key, opened from its sealed form. */
export function taskChannelKey(channel: Channel): string {
  return decryptSecret(channel.key_encrypted);
}
