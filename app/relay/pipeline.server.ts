import { setChannelStatus } from "~/domain/channels/channels.server";
import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import { adapterFor } from "./adapters/registry";
import type { RelayMode } from "./adapters/types";
import { attemptChannel, type AttemptResult } from "./attempt.server";
import { checkModelAllowed, resolveGroup, type TokenContext } from "./auth/token-auth.server";
import { currentPriceTables } from "./billing/price-tables.server";
import { priceModel, quotaFor, reservationFor, type ModelPricing, type Usage } from "./billing/pricing";
import { refundQuota, reserveQuota, settleQuota } from "./billing/quota.server";
import { adjustCachedTokenQuota } from "./auth/token-cache.server";
import { shouldDisableChannel } from "./failure-policy";
import { localFailure, type RelayFailure } from "./relay-error";
import type { ReplySink } from "./reply-sink";
import { callCount, estimatePromptTokens, maxTokensOf, requestModel } from "./request-parse";
import { channelById, routesFor } from "./routing/channel-cache.server";
import { pickChannel } from "./routing/pick-channel";
import { countPromptTokens } from "./stream/token-counter";

export type RelayRequest = {
  token: TokenContext;
  mode: RelayMode;
  path: string;
  body: Record<string, unknown>;
  rawBody?: Buffer;
  contentType?: string;
  requestId: string;
  startedAt: number;
};

function describePricing(pricing: ModelPricing): { content: string; other: Record<string, unknown> } {
  if (pricing.kind === "price") {
    return { content: `模型价格 ${pricing.modelPrice}，分组倍率 ${pricing.groupRatio}`, other: { model_price: pricing.modelPrice, group_ratio: pricing.groupRatio, model_ratio: 0, completion_ratio: 0 } };
  }
  return {
    content: `模型倍率 ${pricing.modelRatio}，补全倍率 ${pricing.completionRatio}，分组倍率 ${pricing.groupRatio}`,
    other: { model_ratio: pricing.modelRatio, completion_ratio: pricing.completionRatio, group_ratio: pricing.groupRatio, model_price: -1 },
  };
}

/** The usage to bill: the upstream's when given, else counted (prompt from the request, completion from what passed). */
function billableUsage(result: Extract<AttemptResult, { ok: true }>, body: Record<string, unknown>): Usage {
  if (result.usage) return result.usage;
  return { prompt_tokens: countPromptTokens(body), completion_tokens: result.countedCompletion };
}

async function maybeDisable(channelId: number, channelType: number, autoBan: number, result: Extract<AttemptResult, { ok: false }>): Promise<void> {
  if (!options.bool("AutomaticDisableChannelEnabled") || !autoBan || result.upstreamStatus === 0) return;
  if (!shouldDisableChannel(result.upstreamStatus, result.error, channelType)) return;
  await setChannelStatus(channelId, 3, `${result.upstreamStatus} ${result.error.message}`.slice(0, 500));
}

/**
 * The relay pipeline for one request: model and group → price → reserve → try channels
 * (priority tiers, failed channels excluded) → settle with a usage log, or refund.
 * Returns a failure for the caller to send when nothing was written to the client.
 */
export async function relay(request: RelayRequest, sink: ReplySink): Promise<RelayFailure | undefined> {
  const { token, body } = request;
  const model = requestModel(request.mode, body);
  if (!model) return localFailure(400, "model is required", "invalid_request", "invalid_request_error");
  const stream = body.stream === true && (request.mode === "chat" || request.mode === "completions");
  const refusal = checkModelAllowed(token, model);
  if (refusal) return refusal;
  const group = resolveGroup(token);
  if (typeof group !== "string") return group;

  let tiers = await routesFor(group, model);
  if (token.pinnedChannelId) {
    const pinned = await channelById(token.pinnedChannelId);
    if (!pinned || pinned.status !== 1) return localFailure(403, "该渠道已被禁用", "channel_disabled");
    tiers = [{ priority: pinned.priority, channels: [{ id: pinned.id, weight: pinned.weight, priority: pinned.priority }] }];
  }
  if (tiers.length === 0) return localFailure(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, "model_not_available");

  const tables = currentPriceTables();
  const pricing = priceModel(tables, model, group);
  if (!pricing) return localFailure(400, `模型 ${model} 倍率或价格未配置，请联系管理员设置`, "model_price_error");
  // A fixed price is per call, and an image request for n images is n calls.
  const calls = pricing.kind === "price" ? callCount(request.mode, body) : 1;
  const hold = calls * reservationFor(pricing, estimatePromptTokens(body, request.mode), maxTokensOf(body), options.int("PreConsumedQuota"), tables.quotaPerUnit);
  const payer = { userId: token.user.id, tokenId: token.token.id, tokenUnlimited: token.token.unlimited_quota, tokenKeyHash: token.keyHash };
  const reserved = await reserveQuota(payer, hold);
  if (!reserved.ok) {
    return reserved.reason === "user" ? localFailure(403, "用户额度不足", "insufficient_user_quota") : localFailure(403, "该令牌额度已用尽", "token_quota_exhausted");
  }

  const clientGone = new AbortController();
  sink.onClientGone(() => clientGone.abort());
  const excluded = new Set<number>();
  const chain: number[] = [];
  let last: Extract<AttemptResult, { ok: false }> | undefined;
  const attempts = token.pinnedChannelId ? 1 : options.int("RetryTimes") + 1;
  try {
    for (let attempt = 0; attempt < attempts && !clientGone.signal.aborted; attempt += 1) {
      const routed = pickChannel(tiers, attempt, excluded);
      if (!routed) break;
      const channel = await channelById(routed.id);
      if (!channel) break;
      chain.push(channel.id);
      const result = await attemptChannel(
        {
          channel, adapter: adapterFor(channel.type), mode: request.mode, path: request.path, body, rawBody: request.rawBody, contentType: request.contentType,
          requestModel: model, stream, requestId: request.requestId, clientGone: clientGone.signal,
          timeouts: { connectMs: env.RELAY_CONNECT_TIMEOUT * 1000, responseMs: env.RELAY_TIMEOUT * 1000, streamIdleMs: env.STREAMING_TIMEOUT * 1000 },
        },
        sink,
      );
      if (result.ok) {
        const usage = billableUsage(result, body);
        const quota = calls * quotaFor(pricing, usage, tables.quotaPerUnit);
        const described = describePricing(pricing);
        const log = options.bool("LogConsumeEnabled")
          ? {
              username: token.user.username, tokenName: token.token.name, modelName: model, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens,
              useTimeSeconds: Math.round((Date.now() - request.startedAt) / 1000), isStream: stream, channelId: channel.id, group, content: described.content,
              other: { ...described.other, frt: stream ? result.frtMs : -1000, admin_info: { use_channel: chain.map(String) }, request_id: request.requestId },
            }
          : undefined;
        // The charge is journaled when settleQuota returns (written to the database behind the
        // reply), so the reply goes out without waiting for a database round trip.
        try {
          const charged = await settleQuota(reserved.reservation, quota, channel.id, log);
          if (charged) adjustCachedTokenQuota(token.keyHash, charged);
        } finally {
          result.deliver();
        }
        return undefined;
      }
      last = result;
      excluded.add(channel.id);
      await maybeDisable(channel.id, channel.type, channel.auto_ban, result);
      if (!result.retryable || result.responded) break;
    }
  } catch (error) {
    refundQuota(reserved.reservation);
    throw error;
  }
  refundQuota(reserved.reservation);
  if (!last) return localFailure(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, "model_not_available");
  // The reference hides an upstream's 429 behind its own wording: the group is saturated, not the key.
  const message = last.upstreamStatus === 429 ? "当前分组上游负载已饱和，请稍后再试" : last.error.message;
  return { status: last.status, message, type: last.error.type, code: last.error.code };
}
