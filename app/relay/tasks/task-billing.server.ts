import type { Channel } from "../../../db/schema";
import type { FailedAttempt } from "../admission/attempt-loop.server";
import type { AdmittedCall, Hold } from "../admission/run.server";
import type { TokenContext } from "../auth/token-auth.server";
import { refusals } from "../admission/refusals";
import type { Bill } from "../admission/settlement.server";
import type { PricedModel } from "../billing/price-tables.server";
import { isRetryableStatus, mapStatusCode } from "../failure-policy";
import type { RelayFailure } from "../relay-error";
import { channelKeyForCall } from "~/domain/channels/channel-key.server";

/**
 * Fixed-price task actions (Midjourney, Suno) through the admission module: the action's
 * ModelPrice × group ratio, held before the upstream submit and charged once the upstream
 * accepts the task (the reference charges after a 200 without holding first, so a burst could
 * overspend). A failed submit gives the hold back; a task that fails later is refunded by the
 * poller (domain/tasks).
 */
export function taskQuota(priced: PricedModel): number | undefined {
  if (priced.pricing.kind !== "price") return undefined;
  const { modelPrice, groupRatio } = priced.pricing;
  return Math.round(modelPrice * groupRatio * priced.quotaPerUnit);
}

/** The hold of a task action: its whole price (nothing for a free action); a model priced by ratio cannot be sold as a task. */
export function taskHold(model: string, priced: PricedModel): Hold | RelayFailure {
  const quota = taskQuota(priced);
  if (quota === undefined) return refusals.priceMissing(model);
  return { hold: quota, estimate: quota };
}

/** What every task submit tells the admission module: who pays, the action's model, its price as the hold, and the channel an action on an earlier task must go to. */
export function taskCall(
  token: TokenContext,
  model: string,
  meta: { requestId: string; startedAt: number },
  channel: Channel | undefined,
): Pick<AdmittedCall<unknown>, "token" | "model" | "requestId" | "startedAt" | "channel" | "hold"> {
  return {
    token,
    model,
    requestId: meta.requestId,
    startedAt: meta.startedAt,
    channel,
    hold: (priced) => taskHold(model, priced),
  };
}

/** The bill of an accepted task: its price, with the action and the task id in its log row. */
export function taskBill(priced: PricedModel, action: string, taskId: string): Bill {
  const quota = taskQuota(priced) ?? 0;
  const { modelPrice, groupRatio } =
    priced.pricing.kind === "price" ? priced.pricing : { modelPrice: 0, groupRatio: 0 };
  return {
    quota,
    promptTokens: 0,
    completionTokens: 0,
    isStream: false,
    content: `模型固定价格 ${modelPrice.toFixed(2)}，分组倍率 ${groupRatio.toFixed(2)}，操作 ${action}`,
    other: { model_price: modelPrice, group_ratio: groupRatio },
    note: { task_id: taskId },
  };
}

/**
 * A task upstream's answer that is not an accepted task, as an attempt the loop can judge: its
 * status (mapped like any channel's), retried on another channel by the policy every surface
 * keeps. `upstreamStatus` 0 when nothing answered.
 */
export function failedTaskAttempt(
  channel: Channel,
  upstreamStatus: number,
  message: string,
  code: string | null = null,
): FailedAttempt {
  const status = upstreamStatus >= 400 ? mapStatusCode(channel.status_code_mapping, upstreamStatus) : 502;
  return {
    ok: false,
    status,
    error: { message, type: "upstream_error", code: code ?? (upstreamStatus ? "upstream_error" : "do_request_failed") },
    // Nothing answered, or an answer that is no task (a 2xx without one): another channel may do better.
    retryable: upstreamStatus < 400 || isRetryableStatus(upstreamStatus, channel.type),
    responded: false,
    upstreamStatus,
  };
}

/** The channel's base URL without trailing slashes, or undefined when it has none (never another host). */
export function channelBase(channel: Channel): string | undefined {
  const base = (channel.base_url ?? "").trim().replace(/\/+$/, "");
  return /^https?:\/\//i.test(base) ? base : undefined;
}

/** The channel's key, opened from its sealed form. */
export function taskChannelKey(channel: Channel): string {
  return channelKeyForCall(channel);
}
