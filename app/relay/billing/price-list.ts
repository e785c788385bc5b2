import type { ModelPricing } from "./pricing";

/** The reference's billing type: 0 per usage (ratios), 1 per call (ModelPrice). */
export const QUOTA_TYPE_RATIO = 0;
export const QUOTA_TYPE_PRICE = 1;

/** One model of `GET /api/pricing` (the reference's shape), with the groups that reach it. */
export type PricingEntry = {
  model_name: string;
  quota_type: typeof QUOTA_TYPE_RATIO | typeof QUOTA_TYPE_PRICE;
  model_ratio: number;
  model_price: number;
  owner_by: string;
  completion_ratio: number;
  /** What a cached prompt token and a cache write cost, relative to a prompt token (1 for a per-call model). */
  cache_ratio: number;
  create_cache_ratio: number;
  enable_groups: string[];
};

/** The reference leaves the unused side zero: a per-call model has no ratios, a ratio model no price. */
export function toPricingEntry(model: string, pricing: ModelPricing, groups: string[]): PricingEntry {
  const base = { model_name: model, owner_by: "", enable_groups: groups };
  if (pricing.kind === "price")
    return {
      ...base,
      quota_type: QUOTA_TYPE_PRICE,
      model_ratio: 0,
      model_price: pricing.modelPrice,
      completion_ratio: 0,
      cache_ratio: 1,
      create_cache_ratio: 1,
    };
  return {
    ...base,
    quota_type: QUOTA_TYPE_RATIO,
    model_ratio: pricing.modelRatio,
    model_price: 0,
    completion_ratio: pricing.completionRatio,
    cache_ratio: pricing.cacheRatio,
    create_cache_ratio: pricing.createCacheRatio,
  };
}

/**
 * What one model costs in one group, in quota units: per 1,000 prompt and completion tokens, or
 * per call. The same products `quotaFor` charges (before its rounding to whole quota), so the
 * price list cannot drift from the bill.
 */
export type UnitPrices =
  | { kind: "ratio"; promptPer1K: number; completionPer1K: number; cachedPer1K: number; cacheWritePer1K: number }
  | { kind: "price"; perCall: number };

export function unitPrices(pricing: ModelPricing, quotaPerUnit: number): UnitPrices {
  if (pricing.kind === "price")
    return { kind: "price", perCall: pricing.modelPrice * quotaPerUnit * pricing.groupRatio };
  return {
    kind: "ratio",
    promptPer1K: 1000 * pricing.modelRatio * pricing.groupRatio,
    completionPer1K: 1000 * pricing.modelRatio * pricing.completionRatio * pricing.groupRatio,
    cachedPer1K: 1000 * pricing.modelRatio * pricing.cacheRatio * pricing.groupRatio,
    cacheWritePer1K: 1000 * pricing.modelRatio * pricing.createCacheRatio * pricing.groupRatio,
  };
}

/**
 * A price for display: dollars when the operator shows currency (quota ÷ QuotaPerUnit), else
 * quota units. Small prices keep six significant digits instead of rounding to $0.00, and
 * never turn into exponent notation.
 */
export function formatPrice(quota: number, displayInCurrency: boolean, quotaPerUnit: number): string {
  const value = displayInCurrency ? quota / quotaPerUnit : quota;
  const text = plainNumber(value);
  return displayInCurrency ? `$${text}` : text;
}

function plainNumber(value: number): string {
  if (!Number.isFinite(value) || value === 0) return "0";
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const fixed = value.toFixed(Math.min(12, Math.max(2, 5 - magnitude)));
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** The page's filter: every whitespace-separated term appears in the name, ignoring case. */
export function matchesModelFilter(model: string, query: string): boolean {
  const name = model.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => name.includes(term));
}
