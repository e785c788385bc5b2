import type { ReserveResult } from "../billing/quota.server";
import { localFailure, type RelayFailure } from "../relay-error";

/**
 * Every refusal the admission of a relayed call can give, written once. Each surface answers
 * them in its own wire shape (OpenAI, Anthropic, Gemini, Midjourney, Suno, a refused WebSocket
 * upgrade) but with the same status and code for the same cause: the table is in
 * docs/decisions/033-one-admission-path.md.
 */
export const refusals = {
  modelRequired: (): RelayFailure => localFailure(400, "model is required", "invalid_request", "invalid_request_error"),
  /** The token names a channel (an admin's pinned channel) that is disabled or gone. */
  pinnedChannelDisabled: (): RelayFailure => localFailure(403, "该渠道已被禁用", "channel_disabled"),
  noChannel: (group: string, model: string): RelayFailure =>
    localFailure(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, "model_not_available"),
  priceMissing: (model: string): RelayFailure =>
    localFailure(400, `模型 ${model} 倍率或价格未配置，请联系管理员设置`, "model_price_error"),
  userQuota: (): RelayFailure => localFailure(403, "用户额度不足", "insufficient_user_quota"),
  tokenQuota: (): RelayFailure => localFailure(403, "该令牌额度已用尽", "token_quota_exhausted"),
  /** The quota ledger could not answer in time (its database slow or away): try again soon. */
  billingBusy: (): RelayFailure => localFailure(503, "计费服务繁忙，请稍后再试", "billing_busy"),
  /** The database could not be reached for something the call needed (a key not yet cached, the routing table): try again soon. */
  databaseAway: (): RelayFailure => localFailure(503, "数据库暂时不可用，请稍后重试", "database_unavailable"),
  /** Every channel that could serve had all its keys at their caps (requests in flight, per minute): none was called. */
  channelKeysAtLimit: (): RelayFailure =>
    localFailure(
      429,
      "可用渠道的所有密钥都已达到并发或每分钟请求数上限，请稍后再试",
      "channel_keys_at_limit",
      "rate_limit_error",
    ),
  /** The last channel's upstream refused the channel's own key (401/403): the gateway failed, the caller's key is fine. */
  channelCredentialsRefused: (upstreamStatus: number): RelayFailure =>
    localFailure(
      502,
      `渠道的上游拒绝了渠道自身的凭证（上游状态 ${upstreamStatus}），请联系管理员`,
      "channel_credentials_refused",
      "upstream_error",
    ),
};

/** Why a reservation was refused, as the refusal the client gets. */
export function reservationRefusal(result: Extract<ReserveResult, { ok: false }>): RelayFailure {
  if (result.reason === "busy") return refusals.billingBusy();
  return result.reason === "user" ? refusals.userQuota() : refusals.tokenQuota();
}
