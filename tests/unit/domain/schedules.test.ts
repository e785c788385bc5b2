import { describe, expect, it } from "vitest";
import { isDue, nextRunAt, periodFromMinutes, STALE_RUN_MS } from "~/domain/jobs/schedule";
import { parsePartitionBound, planRetention, retentionCutoff } from "~/domain/logs/retention";

/** The schedules' clock logic and the retention plan (decision 029), on a fake clock. */
const MIN = 60_000;
const T = 1_800_000_000_000; // a fixed "now" in ms

describe("schedule periods", () => {
  it("the option wins when set; else the environment's minutes; else off", () => {
    expect(periodFromMinutes(10, 30)).toBe(10 * MIN);
    expect(periodFromMinutes(0, 30)).toBe(30 * MIN);
    expect(periodFromMinutes(0, undefined)).toBe(0);
    expect(periodFromMinutes(0.05, undefined)).toBe(3_000);
    expect(periodFromMinutes(Number.NaN, undefined)).toBe(0);
  });

  it("a schedule is due when never run, or a period after its last start, and never while a live run holds it", () => {
    expect(isDue(undefined, 5 * MIN, T)).toBe(true);
    expect(isDue({ lastStartedAt: null, running: false }, 5 * MIN, T)).toBe(true);
    expect(isDue({ lastStartedAt: T - 4 * MIN, running: false }, 5 * MIN, T)).toBe(false);
    expect(isDue({ lastStartedAt: T - 5 * MIN, running: false }, 5 * MIN, T)).toBe(true);
    expect(isDue({ lastStartedAt: T - 60 * MIN, running: true }, 5 * MIN, T)).toBe(false);
    // A run that died with its process stops blocking once stale.
    expect(isDue({ lastStartedAt: T - STALE_RUN_MS, running: true }, 5 * MIN, T)).toBe(true);
    expect(isDue(undefined, 0, T)).toBe(false);
  });

  it("the next run is a period after the last start, now when overdue, none when off", () => {
    expect(nextRunAt({ lastStartedAt: T - 2 * MIN, running: false }, 5 * MIN, T)).toBe(T + 3 * MIN);
    expect(nextRunAt({ lastStartedAt: T - 20 * MIN, running: false }, 5 * MIN, T)).toBe(T);
    expect(nextRunAt(undefined, 5 * MIN, T)).toBe(T);
    expect(nextRunAt({ lastStartedAt: T, running: false }, 0, T)).toBeUndefined();
  });
});

describe("log retention plan", () => {
  const month = (y: number, m: number) => Date.UTC(y, m - 1, 1) / 1000;
  const partitions = [
    { name: "logs_default" },
    { name: "logs_y2026m08", from: month(2026, 8), to: month(2026, 9) },
    { name: "logs_y2026m09", from: month(2026, 9), to: month(2026, 10) },
    { name: "logs_y2026m10", from: month(2026, 10), to: month(2026, 11) },
    { name: "logs_y2026m11", from: month(2026, 11), to: month(2026, 12) },
  ];

  it("drops the months entirely older than the cutoff, trims the edge month and the default partition, keeps the rest", () => {
    const cutoff = Date.UTC(2026, 9, 15) / 1000; // 15 October
    expect(planRetention(partitions, cutoff)).toEqual({
      drop: ["logs_y2026m08", "logs_y2026m09"],
      trim: ["logs_default", "logs_y2026m10"],
    });
  });

  it("a cutoff on a month boundary drops the month before it whole and trims none of the later ones", () => {
    expect(planRetention(partitions, month(2026, 10))).toEqual({
      drop: ["logs_y2026m08", "logs_y2026m09"],
      trim: ["logs_default"],
    });
  });

  it("a cutoff in the future never drops the current month or one ahead: their rows are deleted, the partitions stay", () => {
    const now = Date.UTC(2026, 10, 24) / 1000; // 24 November
    expect(planRetention(partitions, month(2027, 2), now)).toEqual({
      drop: ["logs_y2026m08", "logs_y2026m09", "logs_y2026m10"],
      trim: ["logs_default", "logs_y2026m11"],
    });
  });

  it("the cutoff is LogRetentionDays before now; 0 keeps logs forever", () => {
    expect(retentionCutoff(30, T)).toBe(T / 1000 - 30 * 86_400);
    expect(retentionCutoff(0, T)).toBeUndefined();
  });

  it("reads the catalogue's partition bounds", () => {
    expect(parsePartitionBound("logs_y2026m10", "FOR VALUES FROM ('1790812800') TO ('1793491200')")).toEqual({
      name: "logs_y2026m10",
      from: 1790812800,
      to: 1793491200,
    });
    expect(parsePartitionBound("logs_y2026m10", "FOR VALUES FROM (1790812800) TO (1793491200)")).toEqual({
      name: "logs_y2026m10",
      from: 1790812800,
      to: 1793491200,
    });
    expect(parsePartitionBound("logs_default", "DEFAULT")).toEqual({ name: "logs_default" });
    expect(parsePartitionBound("odd", "FOR VALUES IN (1)")).toBeUndefined();
  });
});
