import { setChannelStatus } from "~/domain/channels/channels.server";
import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import { adapterFor } from "./adapters/registry";
import type { RelayMode } from "./adapters/types";
import { attemptChannel, type AttemptResult, type ClientWatch, type RelayTimeouts } from "./attempt.server";
import { checkModelAllowed, resolveGroup, type TokenContext } from "./auth/token-auth.server";
import { pricedModel } from "./billing/price-tables.server";
import { holdFor, imagePriceFactor, quotaFor, reservationFor, type Usage } from "./billing/pricing";
import { clampUsage, type UsageNote } from "./billing/usage-parse";
import { chargesJournaled, refundQuota, reserveQuota, settleQuota } from "./billing/quota.server";
import { adjustCachedTokenQuota } from "./auth/token-cache.server";
import { shouldDisableChannel } from "./failure-policy";
import { localFailure, type RelayFailure } from "./relay-error";
import type { ReplySink } from "./reply-sink";
import type { Ingress } from "./ingress/types";
import { callCount, estimatePromptTokens, maxTokensOf, requestModel } from "./request-parse";
import { routingTable, tiersIn } from "./routing/channel-cache.server";
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
  /**
   * A native client surface (Anthropic Messages, Gemini, Responses; decision 026): `body` is then
   * the OpenAI chat form of the client's request (routing, pricing, counting), and the ingress
   * picks each attempt's adapter — a pass-through where the channel speaks the client's protocol,
   * else the channel's own adapter wrapped to convert its reply back.
   */
  ingress?: Ingress;
};

/**
 * A ratio-priced image model whose upstream reports no usage (DALL·E does not) bills each
 * standard image as this many tokens at its ratio, as one-api did (ratio 20 = $0.04 a dall-e-3
 * image); counting only the prompt's tokens made such images all but free.
 */
const TOKENS_PER_IMAGE = 1000;

/**
 * The usage to bill: the upstream's when given (and believed: usage-parse), else counted (prompt
 * from the request, completion from what passed); either way no side above the ceiling. The
 * note says what the log's `other` must record about it (a usage ignored, a count clamped).
 */
function billableUsage(result: Extract<AttemptResult, { ok: true }>, request: RelayRequest, images: number): { usage: Usage; usageNote?: UsageNote } {
  const clamped = clampUsage(measuredUsage(result, request, images), env.RELAY_USAGE_CEILING);
  if (!result.usageNote) return clamped;
  return { usage: clamped.usage, usageNote: { ...result.usageNote, ...clamped.usageNote } };
}

function measuredUsage(result: Extract<AttemptResult, { ok: true }>, request: RelayRequest, images: number): Usage {
  if (result.usage) return result.usage;
  if (request.mode === "images") return { prompt_tokens: Math.round(images * TOKENS_PER_IMAGE), completion_tokens: 0 };
  return { prompt_tokens: countPromptTokens(request.body), completion_tokens: result.countedCompletion };
}

async function maybeDisable(channelId: number, channelType: number, autoBan: number, result: Extract<AttemptResult, { ok: false }>): Promise<void> {
  if (!options.bool("AutomaticDisableChannelEnabled") || !autoBan || result.upstreamStatus === 0) return;
  if (!shouldDisableChannel(result.upstreamStatus, result.error, channelType)) return;
  await setChannelStatus(channelId, 3, `${result.upstreamStatus} ${result.error.message}`.slice(0, 500));
}

const TIMEOUTS: RelayTimeouts = { connectMs: env.RELAY_CONNECT_TIMEOUT * 1000, responseMs: env.RELAY_TIMEOUT * 1000, streamIdleMs: env.STREAMING_TIMEOUT * 1000 };

/** Relays in progress in this process: a reply settled with no other in flight need not wait for company to share its journal write. */
let relaysInFlight = 0;

/**
 * The relay pipeline for one request: model and group → price → reserve → try channels
 * (priority tiers, failed channels excluded) → settle with a usage log, or refund.
 * Returns a failure for the caller to send when nothing was written to the client.
 */
export async function relay(request: RelayRequest, sink: ReplySink): Promise<RelayFailure | undefined> {
  relaysInFlight += 1;
  try {
    return await relayCounted(request, sink);
  } finally {
    relaysInFlight -= 1;
  }
}

async function relayCounted(request: RelayRequest, sink: ReplySink): Promise<RelayFailure | undefined> {
  const { token, body } = request;
  const model = requestModel(request.mode, body);
  if (!model) return localFailure(400, "model is required", "invalid_request", "invalid_request_error");
  const stream = body.stream === true && (request.mode === "chat" || request.mode === "completions");
  const refusal = checkModelAllowed(token, model);
  if (refusal) return refusal;
  const group = resolveGroup(token);
  if (typeof group !== "string") return group;

  // Each of these is a plain value in the steady state; awaiting one anyway costs a microtask turn.
  const table = routingTable();
  const routing = table instanceof Promise ? await table : table;
  let tiers = tiersIn(routing, group, model);
  if (token.pinnedChannelId) {
    const pinned = routing.channels.get(token.pinnedChannelId);
    if (!pinned || pinned.status !== 1) return localFailure(403, "该渠道已被禁用", "channel_disabled");
    tiers = [{ priority: pinned.priority, channels: [{ id: pinned.id, weight: pinned.weight, priority: pinned.priority }] }];
  }
  if (tiers.length === 0) return localFailure(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, "model_not_available");

  const priced = pricedModel(model, group);
  if (!priced) return localFailure(400, `模型 ${model} 倍率或价格未配置，请联系管理员设置`, "model_price_error");
  const { pricing, quotaPerUnit } = priced;
  // An image request for n images is n standard images, each weighted by its size and quality;
  // a fixed price is per such image, a ratio bills them as tokens (billableUsage).
  const imageFactor = request.mode === "images" ? imagePriceFactor(model, body) : 1;
  const images = request.mode === "images" ? callCount(request.mode, body) * imageFactor : 0;
  const calls = pricing.kind === "price" && request.mode === "images" ? images : 1;
  const promptEstimate = request.mode === "images" && pricing.kind === "ratio" ? images * TOKENS_PER_IMAGE : estimatePromptTokens(body, request.mode);
  const maxTokens = maxTokensOf(body);
  const preConsumed = options.int("PreConsumedQuota");
  const estimate = Math.ceil(calls * reservationFor(pricing, promptEstimate, maxTokens, preConsumed, quotaPerUnit));
  const hold = Math.max(estimate, Math.ceil(calls * holdFor(pricing, promptEstimate, maxTokens, preConsumed, quotaPerUnit)));
  const payer = { userId: token.user.id, tokenId: token.token.id, tokenUnlimited: token.token.unlimited_quota, tokenKeyHash: token.keyHash };
  const reserving = reserveQuota(payer, hold, estimate);
  const reserved = reserving instanceof Promise ? await reserving : reserving;
  if (!reserved.ok) {
    if (reserved.reason === "busy") return localFailure(503, "计费服务繁忙，请稍后再试", "billing_busy");
    return reserved.reason === "user" ? localFailure(403, "用户额度不足", "insufficient_user_quota") : localFailure(403, "该令牌额度已用尽", "token_quota_exhausted");
  }

  const watch: ClientWatch = { gone: false, upstream: undefined };
  sink.onClientGone(() => {
    watch.gone = true;
    watch.upstream?.abort();
  });
  const excluded = new Set<number>();
  const chain: number[] = [];
  let last: Extract<AttemptResult, { ok: false }> | undefined;
  const attempts = token.pinnedChannelId ? 1 : options.int("RetryTimes") + 1;
  try {
    for (let attempt = 0; attempt < attempts && !watch.gone; attempt += 1) {
      const routed = pickChannel(tiers, attempt, excluded);
      if (!routed) break;
      // Read afresh per attempt: an auto-disable on another node may have reloaded the table.
      const channel = (attempt === 0 ? routing : await routingTable()).channels.get(routed.id);
      if (!channel) break;
      chain.push(channel.id);
      const result = await attemptChannel(
        {
          channel, adapter: request.ingress ? request.ingress.adapterFor(channel.type) : adapterFor(channel.type), mode: request.mode, path: request.path, body, rawBody: request.rawBody, contentType: request.contentType,
          requestModel: model, stream, requestId: request.requestId, watch, timeouts: TIMEOUTS,
        },
        sink,
      );
      if (result.ok) {
        const { usage, usageNote } = billableUsage(result, request, images);
        if (usageNote?.usage_warning) console.warn(`[relay] ${request.requestId} channel #${channel.id}: ${usageNote.usage_warning}`);
        const quota = Math.round(calls * quotaFor(pricing, usage, quotaPerUnit));
        const log = options.bool("LogConsumeEnabled")
          ? {
              username: token.user.username, tokenName: token.token.name, modelName: model, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens,
              useTimeSeconds: Math.round((Date.now() - request.startedAt) / 1000), isStream: stream, channelId: channel.id, group,
              content: imageFactor === 1 ? priced.logContent : `${priced.logContent}，图片倍率 ${imageFactor}`,
              other: { ...priced.logRatios, ...(imageFactor === 1 ? undefined : { image_ratio: imageFactor }), frt: stream ? result.frtMs : -1000, admin_info: { use_channel: chain.map(String) }, request_id: request.requestId, ...usageNote },
            }
          : undefined;
        // The reply goes out once its charge is in the local journal (written with the other
        // charges of this turn); the database write follows behind it.
        try {
          const settling = settleQuota(reserved.reservation, quota, channel.id, log);
          const charged = settling instanceof Promise ? await settling : settling;
          if (charged) adjustCachedTokenQuota(token.keyHash, charged);
          const journaled = chargesJournaled(relaysInFlight === 1);
          if (journaled) await journaled;
        } finally {
          result.deliver(usage);
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
