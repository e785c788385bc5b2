import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultCacheRatio, defaultCreateCacheRatio } from "~/domain/billing/cache-ratios";
import { priceModel, quotaFor, type ModelPricing, type PriceTables } from "~/relay/billing/pricing";
import { clampUsage, parseAnthropicUsage, parseGeminiUsage, parseOpenAiUsage } from "~/relay/billing/usage-parse";

const tables = (over: Partial<PriceTables> = {}): PriceTables => ({
  modelPrice: {},
  modelRatio: { "gpt-4o": 1.25, "claude-sonnet-4-20250514": 1.5, house: 1 },
  completionRatio: {},
  cacheRatio: {},
  createCacheRatio: {},
  groupRatio: {},
  quotaPerUnit: 500_000,
  ...over,
});

describe("cache ratios", () => {
  it("default to what the providers publish, and the operator's entry wins", () => {
    expect(defaultCacheRatio("gpt-4o-2024-08-06")).toBe(0.5);
    expect(defaultCacheRatio("gpt-4.1-mini")).toBe(0.25);
    expect(defaultCacheRatio("claude-3-7-sonnet-20250219")).toBe(0.1);
    expect(defaultCreateCacheRatio("claude-3-7-sonnet-20250219")).toBe(1.25);
    expect(defaultCacheRatio("house")).toBe(1);
    const priced = priceModel(tables({ cacheRatio: { "gpt-4o": 0.3 } }), "gpt-4o", "default");
    expect(priced).toMatchObject({ kind: "ratio", cacheRatio: 0.3, createCacheRatio: 1 });
  });

  it("a cached token never costs more than an uncached one when its ratio is at most 1, for any usage", () => {
    const pricing = priceModel(tables(), "gpt-4o", "default") as ModelPricing;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (prompt, cachedRaw, completion) => {
          const cached = Math.min(prompt, cachedRaw);
          const withCache = quotaFor(
            pricing,
            { prompt_tokens: prompt, completion_tokens: completion, cached_tokens: cached },
            500_000,
          );
          const without = quotaFor(pricing, { prompt_tokens: prompt, completion_tokens: completion }, 500_000);
          expect(withCache).toBeLessThanOrEqual(without);
          expect(Number.isInteger(withCache)).toBe(true);
        },
      ),
    );
  });
});

describe("cached and reasoning parts of a usage", () => {
  it("are read from each provider's shape and kept inside their whole", () => {
    expect(
      parseOpenAiUsage({
        prompt_tokens: 10,
        completion_tokens: 5,
        prompt_tokens_details: { cached_tokens: 50 },
        completion_tokens_details: { reasoning_tokens: "3" },
      }).usage,
    ).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      cached_tokens: 10,
      reasoning_tokens: 3,
    });
    expect(
      parseOpenAiUsage({ input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 4 } }).usage,
    ).toEqual({ prompt_tokens: 10, completion_tokens: 5, cached_tokens: 4 });
    expect(
      parseAnthropicUsage({
        input_tokens: 12,
        cache_read_input_tokens: 2,
        cache_creation_input_tokens: 6,
        output_tokens: 1,
      }).usage,
    ).toEqual({
      prompt_tokens: 20,
      completion_tokens: 1,
      cached_tokens: 2,
      cache_write_tokens: 6,
    });
    expect(
      parseGeminiUsage({
        promptTokenCount: 30,
        cachedContentTokenCount: 20,
        candidatesTokenCount: 4,
        thoughtsTokenCount: 6,
      }).usage,
    ).toEqual({
      prompt_tokens: 30,
      completion_tokens: 10,
      cached_tokens: 20,
      reasoning_tokens: 6,
    });
  });

  it("a part that is not a count is dropped with a warning, the usage still believed", () => {
    const parsed = parseOpenAiUsage({
      prompt_tokens: 10,
      completion_tokens: 5,
      prompt_tokens_details: { cached_tokens: -1 },
    });
    expect(parsed.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5 });
    expect(parsed.usageNote?.usage_warning).toContain("prompt_tokens_details.cached_tokens -1");
  });

  it("stay inside a clamped usage", () => {
    const { usage } = clampUsage(
      { prompt_tokens: 5000, completion_tokens: 10, cached_tokens: 4000, cache_write_tokens: 1000 },
      3000,
    );
    expect(usage).toEqual({ prompt_tokens: 3000, completion_tokens: 10, cached_tokens: 3000, cache_write_tokens: 0 });
  });
});
