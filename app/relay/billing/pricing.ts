import { defaultCacheRatio, defaultCreateCacheRatio } from "~/domain/billing/cache-ratios";
import { defaultCompletionRatio } from "~/domain/billing/default-ratios";

/**
 * Prices from the operator's options. A model is billed either per call (ModelPrice, USD) or
 * per token (ModelRatio × completion ratio); the operator's CompletionRatio entry wins over the
 * built-in family default (the reference gets this backwards). Both × the group ratio.
 */
export type PriceTables = {
  modelPrice: Record<string, number>;
  modelRatio: Record<string, number>;
  completionRatio: Record<string, number>;
  cacheRatio: Record<string, number>;
  createCacheRatio: Record<string, number>;
  groupRatio: Record<string, number>;
  quotaPerUnit: number;
};

export type ModelPricing =
  | { kind: "price"; modelPrice: number; groupRatio: number }
  | {
      kind: "ratio";
      modelRatio: number;
      completionRatio: number;
      cacheRatio: number;
      createCacheRatio: number;
      groupRatio: number;
    };

/**
 * Tokens of one call. `prompt_tokens` counts every input token, cached reads and cache writes
 * included (OpenAI's convention); `cached_tokens` and `cache_write_tokens` say how many of them
 * were read from or written to the provider's prompt cache, and are billed by their own ratios.
 * `reasoning_tokens` are part of `completion_tokens` (billed as completion), kept for the log.
 */
export type Usage = {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
};

export function priceModel(tables: PriceTables, model: string, group: string): ModelPricing | undefined {
  const groupRatio = tables.groupRatio[group] ?? 1;
  const price = tables.modelPrice[model];
  if (typeof price === "number") return { kind: "price", modelPrice: price, groupRatio };
  const ratio = tables.modelRatio[model];
  if (typeof ratio !== "number") return undefined;
  const completionRatio = tables.completionRatio[model] ?? defaultCompletionRatio(model);
  const cacheRatio = tables.cacheRatio[model] ?? defaultCacheRatio(model);
  const createCacheRatio = tables.createCacheRatio[model] ?? defaultCreateCacheRatio(model);
  return { kind: "ratio", modelRatio: ratio, completionRatio, cacheRatio, createCacheRatio, groupRatio };
}

/**
 * Prompt tokens weighted by what they cost: cache reads at CacheRatio, cache writes at
 * CreateCacheRatio, the rest at 1. The parts are bounded by the whole when parsed.
 */
export function weightedPromptTokens(pricing: Extract<ModelPricing, { kind: "ratio" }>, usage: Usage): number {
  const cached = usage.cached_tokens ?? 0;
  const written = usage.cache_write_tokens ?? 0;
  return usage.prompt_tokens - cached - written + cached * pricing.cacheRatio + written * pricing.createCacheRatio;
}

/** Quota for a finished call. Zero tokens cost nothing; any non-zero usage costs at least 1. */
export function quotaFor(pricing: ModelPricing, usage: Usage, quotaPerUnit: number): number {
  if (pricing.kind === "price") return Math.round(pricing.modelPrice * quotaPerUnit * pricing.groupRatio);
  const tokens = weightedPromptTokens(pricing, usage) + usage.completion_tokens * pricing.completionRatio;
  if (tokens <= 0) return 0;
  const quota = Math.round(tokens * pricing.modelRatio * pricing.groupRatio);
  return pricing.modelRatio > 0 && pricing.groupRatio > 0 ? Math.max(1, quota) : quota;
}

/**
 * What to reserve before the call: the full price, or the estimated prompt plus the allowed
 * completion (max_tokens, else the operator's PreConsumedQuota tokens) at the completion ratio.
 */
export function reservationFor(
  pricing: ModelPricing,
  promptEstimate: number,
  maxTokens: number | undefined,
  preConsumedTokens: number,
  quotaPerUnit: number,
): number {
  if (pricing.kind === "price") return quotaFor(pricing, { prompt_tokens: 0, completion_tokens: 0 }, quotaPerUnit);
  const completion = maxTokens && maxTokens > 0 ? maxTokens : preConsumedTokens;
  return quotaFor(pricing, { prompt_tokens: promptEstimate, completion_tokens: completion }, quotaPerUnit);
}

/**
 * The hold a call reserves (decision 009): as reservationFor, except that a max_tokens below the
 * operator's PreConsumedQuota does not shrink the completion part below it. An undersized
 * max_tokens (or a prompt the upstream counts far above the estimate) otherwise lets a burst of
 * calls through on holds a fraction of their cost, and what the balance cannot cover is the
 * operator's loss. Its price: near the end of a balance fewer calls run at once (a lone call
 * still gets the plain estimate, see reserveQuota's fallback).
 */
export function holdFor(
  pricing: ModelPricing,
  promptEstimate: number,
  maxTokens: number | undefined,
  preConsumedTokens: number,
  quotaPerUnit: number,
): number {
  const completion = Math.max(maxTokens && maxTokens > 0 ? maxTokens : 0, preConsumedTokens);
  return reservationFor(
    pricing,
    promptEstimate,
    completion > 0 ? completion : undefined,
    preConsumedTokens,
    quotaPerUnit,
  );
}

/**
 * DALL·E is priced per image by size and quality, and the operator's ModelPrice is the price of
 * the standard 1024×1024 image (the default table's $0.02 and $0.04 are exactly that): other
 * sizes and HD cost what OpenAI charges for them relative to it. Other models: 1.
 */
export function imagePriceFactor(model: string, body: Record<string, unknown>): number {
  const size = typeof body.size === "string" ? body.size : "1024x1024";
  if (model.startsWith("dall-e-2")) return DALL_E_2_SIZES[size] ?? 1;
  if (model.startsWith("dall-e-3")) {
    const wide = size === "1024x1792" || size === "1792x1024";
    if (body.quality === "hd") return wide ? 3 : 2; // $0.12 / $0.08
    return wide ? 2 : 1; // $0.08 / $0.04
  }
  return 1;
}

// $0.016, $0.018 and $0.02 per image.
const DALL_E_2_SIZES: Record<string, number> = { "256x256": 0.8, "512x512": 0.9, "1024x1024": 1 };
