import { describe, expect, it } from "vitest";
import { bucketOf, OTHER_MODELS, toSeries } from "~/domain/usage/buckets";

// 2030-01-06 is a Sunday; 16:00 UTC is already Monday 00:00 in Shanghai (UTC+8).
const SUNDAY_16_UTC = Date.UTC(2030, 0, 6, 16) / 1000;
const H = 3600;

describe("dashboard buckets", () => {
  it("a day and a week are the viewer's, not UTC's", () => {
    expect(bucketOf(SUNDAY_16_UTC, "day", "UTC")).toBe("2030-01-06");
    expect(bucketOf(SUNDAY_16_UTC, "day", "Asia/Shanghai")).toBe("2030-01-07");
    // Weeks start on Monday: the UTC Sunday belongs to the week of Dec 31, Shanghai's Monday starts a new one.
    expect(bucketOf(SUNDAY_16_UTC, "week", "UTC")).toBe("2029-12-31");
    expect(bucketOf(SUNDAY_16_UTC, "week", "Asia/Shanghai")).toBe("2030-01-07");
    expect(bucketOf(SUNDAY_16_UTC, "hour", "Asia/Shanghai")).toBe("2030-01-07 00:00");
  });

  it("sums hours into buckets per model, in time order, largest model first", () => {
    const rows = [
      { model_name: "b", created_at: SUNDAY_16_UTC + 2 * H, count: 1, token_used: 10, quota: 5 },
      { model_name: "a", created_at: SUNDAY_16_UTC, count: 2, token_used: 20, quota: 100 },
      { model_name: "a", created_at: SUNDAY_16_UTC + H, count: 3, token_used: 30, quota: 50 },
    ];
    const series = toSeries(rows, "day", "UTC");
    expect(series.buckets).toEqual(["2030-01-06"]);
    expect(series.models.map((m) => [m.name, m.byBucket.count, m.byBucket.quota])).toEqual([
      ["a", [5], [150]],
      ["b", [1], [5]],
    ]);
    expect(series.totals).toEqual({ quota: 155, count: 6, token_used: 60 });
    const hourly = toSeries(rows, "hour", "UTC");
    expect(hourly.buckets).toEqual(["2030-01-06 16:00", "2030-01-06 17:00", "2030-01-06 18:00"]);
    expect(hourly.models[0]!.byBucket.quota).toEqual([100, 50, 0]);
  });

  it("folds the smallest models into 其他 past the colour budget, keeping the totals", () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({
      model_name: `m${i}`,
      created_at: SUNDAY_16_UTC,
      count: 1,
      token_used: 1,
      quota: 100 - i,
    }));
    const series = toSeries(rows, "day", "UTC", 4);
    expect(series.models.map((m) => m.name)).toEqual(["m0", "m1", "m2", OTHER_MODELS]);
    expect(series.models.at(-1)!.count).toBe(7);
    expect(series.totals.count).toBe(10);
  });
});
