import { options } from "~/domain/options/store.server";
import { priceModel, type ModelPricing, type PriceTables } from "./pricing";

/** A model's price in a group, with the usage log's description of it. */
export type PricedModel = {
  pricing: ModelPricing;
  quotaPerUnit: number;
  /** The log's `content` line and the ratios its `other` records. */
  logContent: string;
  logRatios: Record<string, number>;
};

const NONE: Record<string, number> = Object.freeze({}) as Record<string, number>;

/** The live price tables (the options reader caches each parsed JSON by its raw text). */
function currentPriceTables(): PriceTables {
  return {
    modelPrice: options.json<Record<string, number>>("ModelPrice") ?? NONE,
    modelRatio: options.json<Record<string, number>>("ModelRatio") ?? NONE,
    completionRatio: options.json<Record<string, number>>("CompletionRatio") ?? NONE,
    cacheRatio: options.json<Record<string, number>>("CacheRatio") ?? NONE,
    createCacheRatio: options.json<Record<string, number>>("CreateCacheRatio") ?? NONE,
    groupRatio: options.json<Record<string, number>>("GroupRatio") ?? NONE,
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
}

let pricedFrom: PriceTables | undefined;
const priced = new Map<string, PricedModel | null>();

function sameTables(a: PriceTables, b: PriceTables): boolean {
  return (
    a.modelPrice === b.modelPrice &&
    a.modelRatio === b.modelRatio &&
    a.completionRatio === b.completionRatio &&
    a.cacheRatio === b.cacheRatio &&
    a.createCacheRatio === b.createCacheRatio &&
    a.groupRatio === b.groupRatio &&
    a.quotaPerUnit === b.quotaPerUnit
  );
}

/**
 * The price of `model` for `group`, or undefined when the operator set neither a ratio nor a
 * price. Worked out once per (group, model) while the tables stay as they are: the option
 * reader hands back the same parsed objects until an option's text changes.
 */
export function pricedModel(model: string, group: string): PricedModel | undefined {
  const tables = currentPriceTables();
  if (!pricedFrom || !sameTables(pricedFrom, tables)) {
    pricedFrom = tables;
    priced.clear();
  }
  const key = `${group}\u0000${model}`;
  let entry = priced.get(key);
  if (entry === undefined) {
    const pricing = priceModel(tables, model, group);
    entry = pricing ? { pricing, quotaPerUnit: tables.quotaPerUnit, ...describePricing(pricing) } : null;
    if (priced.size >= 10_000) priced.clear();
    priced.set(key, entry);
  }
  return entry ?? undefined;
}

function describePricing(pricing: ModelPricing): { logContent: string; logRatios: Record<string, number> } {
  if (pricing.kind === "price") {
    return {
      logContent: `模型价格 ${pricing.modelPrice}，分组倍率 ${pricing.groupRatio}`,
      logRatios: {
        model_price: pricing.modelPrice,
        group_ratio: pricing.groupRatio,
        model_ratio: 0,
        completion_ratio: 0,
      },
    };
  }
  return {
    logContent: `模型倍率 ${pricing.modelRatio}，补全倍率 ${pricing.completionRatio}，分组倍率 ${pricing.groupRatio}`,
    logRatios: {
      model_ratio: pricing.modelRatio,
      completion_ratio: pricing.completionRatio,
      cache_ratio: pricing.cacheRatio,
      cache_creation_ratio: pricing.createCacheRatio,
      group_ratio: pricing.groupRatio,
      model_price: -1,
    },
  };
}
