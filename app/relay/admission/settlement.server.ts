import { options } from "~/domain/options/store.server";
import { adjustCachedTokenQuota } from "../auth/token-cache.server";
import {
  billingWritten,
  chargesJournaled,
  refundQuota,
  settleQuota,
  type ConsumeLog,
  type Reservation,
} from "../billing/quota.server";
import type { ModelPricing, Usage } from "../billing/pricing";
import type { Admission } from "./admit.server";
import { callStep, noteCharge } from "../observe-call.server";
import { endSpan } from "~/utils/tracing.server";
import { callAlone } from "../calls-in-flight";

/** What a served call is billed: its quota and the usage its log row records. */
export type Bill = {
  quota: number;
  promptTokens: number;
  completionTokens: number;
  isStream: boolean;
  /** The log's content line; the price's own description when absent. */
  content?: string;
  /** Surface-specific fields of the log's `other`, after the price's ratios. */
  other?: Record<string, unknown>;
  /** Notes about the usage (a count not believed, a side clamped, a cut stream), last in `other`. */
  note?: Record<string, unknown>;
  /** The cached, cache-written and reasoning parts of the billed usage, recorded in the log row. */
  usageParts?: Pick<Usage, "cached_tokens" | "cache_write_tokens" | "reasoning_tokens">;
};

/**
 * The money side of one served call, settled or refunded exactly once: the hold taken at
 * admission becomes the charge with its usage log (one journal line, charge and log together),
 * or goes back. A second settle or refund is ignored, so a surface's error path can always
 * refund without knowing whether its happy path got that far.
 */
export class CallSettlement {
  private state: "open" | "settled" | "refunded" = "open";

  constructor(
    private readonly admission: Admission,
    private readonly reservation: Reservation | undefined,
    readonly channelId: number,
    private readonly chain: readonly number[],
    private readonly requestId: string,
    private readonly startedAt: number,
  ) {}

  /** The call's price (admission's), for the surface to work out the bill. */
  get priced(): Admission["priced"] {
    return this.admission.priced;
  }

  get done(): boolean {
    return this.state !== "open";
  }

  /** Swaps the hold for the bill's quota and journals it with its log row; returns what was charged. */
  settle(bill: Bill): number | Promise<number> {
    if (this.state === "open") this.admission.limits?.served(bill.promptTokens + bill.completionTokens);
    if (this.state !== "open" || !this.reservation) {
      this.state = this.state === "open" ? "settled" : this.state;
      return 0;
    }
    this.state = "settled";
    const step = callStep(this.requestId, "settlement", { "switchyard.quota": bill.quota });
    const settling = settleQuota(this.reservation, bill.quota, this.channelId, this.logRow(bill));
    if (settling instanceof Promise) {
      return settling.then(
        (charged) => {
          endSpan(step);
          return this.charged(charged, bill);
        },
        (error: unknown) => {
          endSpan(step, String(error));
          throw error;
        },
      );
    }
    endSpan(step);
    return this.charged(settling, bill);
  }

  refund(): void {
    if (this.state !== "open") return;
    this.state = "refunded";
    if (this.reservation) refundQuota(this.reservation);
  }

  /**
   * Resolves once the charge is safe: in the local journal ("journal": a reply may go out, the
   * database write follows behind it), or written to the database ("database": a row that
   * refers to the charge, like a task's, is written next). Undefined when already so.
   */
  durable(level: "journal" | "database"): Promise<void> | undefined {
    if (level === "database") return billingWritten(10_000);
    return chargesJournaled(callAlone());
  }

  private charged(charged: number, bill: Bill): number {
    if (charged) adjustCachedTokenQuota(this.admission.token.keyHash, charged);
    noteCharge(charged, bill.promptTokens, bill.completionTokens);
    return charged;
  }

  private logRow(bill: Bill): ConsumeLog | undefined {
    if (!options.bool("LogConsumeEnabled")) return undefined;
    const { token, model, group, priced } = this.admission;
    return {
      username: token.user.username,
      tokenName: token.token.name,
      modelName: model,
      promptTokens: bill.promptTokens,
      completionTokens: bill.completionTokens,
      useTimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      isStream: bill.isStream,
      channelId: this.channelId,
      group,
      content: withCacheRatios(bill.content ?? priced.logContent, priced.pricing, bill.usageParts),
      other: {
        ...priced.logRatios,
        ...usagePartsForLog(bill.usageParts),
        ...bill.other,
        admin_info: { use_channel: this.chain.map(String) },
        request_id: this.requestId,
        ...bill.note,
      },
    };
  }
}

/** The log's names for the parts of a usage (those of the reference's later versions), present only when non-zero. */
function usagePartsForLog(parts: Bill["usageParts"]): Record<string, number> {
  const out: Record<string, number> = {};
  if (parts?.cached_tokens) out.cache_tokens = parts.cached_tokens;
  if (parts?.cache_write_tokens) out.cache_creation_tokens = parts.cache_write_tokens;
  if (parts?.reasoning_tokens) out.reasoning_tokens = parts.reasoning_tokens;
  return out;
}

/** The content line names the cache ratios a call was billed at, when it read or wrote the cache. */
function withCacheRatios(content: string, pricing: ModelPricing, parts: Bill["usageParts"]): string {
  if (pricing.kind !== "ratio") return content;
  let line = content;
  if (parts?.cached_tokens) line += `，缓存倍率 ${pricing.cacheRatio}`;
  if (parts?.cache_write_tokens) line += `，缓存创建倍率 ${pricing.createCacheRatio}`;
  return line;
}
