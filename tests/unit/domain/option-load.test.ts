import { describe, expect, it, vi } from "vitest";

// The options table as an operator left it before options had bounds.
const storedRows = [
  { key: "QuotaPerUnit", value: "0" },
  { key: "RetryTimes", value: "1000000000" },
  { key: "SystemName", value: "My Gateway" },
];

vi.mock("~/utils/db.server", () => ({
  getDb: async () => ({ selectFrom: () => ({ select: () => ({ execute: async () => storedRows }) }) }),
}));
vi.mock("~/utils/redis.server", () => ({
  subscribe: async () => undefined,
  publish: async () => undefined,
  onResubscribed: () => undefined,
}));

describe("stored values outside their bounds", () => {
  it("a value saved before bounds existed is not served; the default is, and valid values load as stored", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { loadOptions, options } = await import("~/domain/options/store.server");
    await loadOptions();
    expect(options.float("QuotaPerUnit")).toBe(500000);
    expect(options.int("RetryTimes")).toBeLessThanOrEqual(10);
    expect(options.string("SystemName")).toBe("My Gateway");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("QuotaPerUnit"));
    warn.mockRestore();
  });
});
