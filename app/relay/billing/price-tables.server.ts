import { options } from "~/domain/options/store.server";
import type { PriceTables } from "./pricing";

/** The live price tables (the options reader caches each parsed JSON by its raw text). */
export function currentPriceTables(): PriceTables {
  return {
    modelPrice: options.json<Record<string, number>>("ModelPrice") ?? {},
    modelRatio: options.json<Record<string, number>>("ModelRatio") ?? {},
    completionRatio: options.json<Record<string, number>>("CompletionRatio") ?? {},
    groupRatio: options.json<Record<string, number>>("GroupRatio") ?? {},
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
}
