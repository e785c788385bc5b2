import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPrice, matchesModelFilter, toPricingEntry, unitPrices } from "~/relay/billing/price-list";
import { quotaFor, type ModelPricing } from "~/relay/billing/pricing";

const ratio = (
  modelRatio: number,
  completionRatio: number,
  groupRatio: number,
  cacheRatio = 1,
  createCacheRatio = 1,
): ModelPricing => ({ kind: "ratio", modelRatio, completionRatio, cacheRatio, createCacheRatio, groupRatio });

describe("price list", () => {
  it("shows prices that add up to what quotaFor charges, for any ratios and usage", () => {
    const positive = fc.double({ min: 0.001, max: 100, noNaN: true });
    fc.assert(
      fc.property(
        positive,
        positive,
        positive,
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        (m, c, g, prompt, completion) => {
          const pricing = ratio(m, c, g);
          const prices = unitPrices(pricing, 500_000);
          if (prices.kind !== "ratio") throw new Error("ratio expected");
          const fromPage = (prompt / 1000) * prices.promptPer1K + (completion / 1000) * prices.completionPer1K;
          const charged = quotaFor(pricing, { prompt_tokens: prompt, completion_tokens: completion }, 500_000);
          expect(Math.abs(charged - Math.max(1, Math.round(fromPage)))).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it("prices a per-call model at price × QuotaPerUnit × group ratio, as charged", () => {
    const pricing: ModelPricing = { kind: "price", modelPrice: 0.04, groupRatio: 1.5 };
    const prices = unitPrices(pricing, 500_000);
    expect(prices).toEqual({ kind: "price", perCall: 30_000 });
    expect(quotaFor(pricing, { prompt_tokens: 10, completion_tokens: 10 }, 500_000)).toBe(30_000);
  });

  it("keeps the reference's entry shape (the unused side zero), with the cache ratios beside it", () => {
    expect(toPricingEntry("m", ratio(2, 3, 9, 0.5, 1.25), ["default"])).toEqual({
      model_name: "m",
      quota_type: 0,
      model_ratio: 2,
      model_price: 0,
      owner_by: "",
      completion_ratio: 3,
      cache_ratio: 0.5,
      create_cache_ratio: 1.25,
      enable_groups: ["default"],
    });
    expect(toPricingEntry("p", { kind: "price", modelPrice: 0.1, groupRatio: 9 }, ["vip"])).toEqual({
      model_name: "p",
      quota_type: 1,
      model_ratio: 0,
      model_price: 0.1,
      owner_by: "",
      completion_ratio: 0,
      cache_ratio: 1,
      create_cache_ratio: 1,
      enable_groups: ["vip"],
    });
  });

  it("formats dollars without rounding small prices away or using exponents, and quota units when currency is off", () => {
    expect(formatPrice(75, true, 500_000)).toBe("$0.00015");
    expect(formatPrice(0.05, true, 500_000)).toBe("$0.0000001");
    expect(formatPrice(7_142.857, true, 500_000)).toBe("$0.0142857");
    expect(formatPrice(500_000, true, 500_000)).toBe("$1");
    expect(formatPrice(617_250_000, true, 500_000)).toBe("$1234.5");
    expect(formatPrice(0, true, 500_000)).toBe("$0");
    expect(formatPrice(2250, false, 500_000)).toBe("2250");
    expect(formatPrice(37.5, false, 500_000)).toBe("37.5");
  });

  it("filters by every term of the query, ignoring case", () => {
    expect(matchesModelFilter("gpt-4o-mini", "")).toBe(true);
    expect(matchesModelFilter("gpt-4o-mini", "4O")).toBe(true);
    expect(matchesModelFilter("gpt-4o-mini", "gpt mini")).toBe(true);
    expect(matchesModelFilter("gpt-4o-mini", "gpt claude")).toBe(false);
  });
});
