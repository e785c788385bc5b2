import { afterEach, describe, expect, it, vi } from "vitest";
import { allowRequest, countRequest, releaseRequest, requestCount } from "~/utils/rate-limit.server";

// Without REDIS_URL the limiter counts in the process: the path every single-node install takes.
describe("failure budgets (allowRequest + releaseRequest)", () => {
  afterEach(() => vi.useRealTimers());

  it("a released hit frees its slot; unreleased ones use the budget up", async () => {
    const who = `u${Math.random()}`;
    for (let i = 0; i < 3; i++) expect(await allowRequest("test-budget", who, 3, 600)).toBe(true);
    expect(await allowRequest("test-budget", who, 3, 600)).toBe(false);
    // The refused hit and one earlier one are given back: exactly one more fits.
    await releaseRequest("test-budget", who);
    await releaseRequest("test-budget", who);
    expect(await allowRequest("test-budget", who, 3, 600)).toBe(true);
    expect(await allowRequest("test-budget", who, 3, 600)).toBe(false);
  });

  it("a count can be read without counting a hit, and is 0 again once the window ended", async () => {
    vi.useFakeTimers();
    const who = `u${Math.random()}`;
    expect(await requestCount("test-count", who)).toBe(0);
    expect(await countRequest("test-count", who, 10)).toBe(1);
    expect(await countRequest("test-count", who, 10)).toBe(2);
    expect(await requestCount("test-count", who)).toBe(2);
    expect(await requestCount("test-count", who)).toBe(2);
    vi.advanceTimersByTime(11_000);
    expect(await requestCount("test-count", who)).toBe(0);
  });

  it("a release after the window ended does not carry credit into the next window", async () => {
    vi.useFakeTimers();
    const who = `u${Math.random()}`;
    expect(await allowRequest("test-budget", who, 1, 10)).toBe(true);
    vi.advanceTimersByTime(11_000);
    await releaseRequest("test-budget", who);
    await releaseRequest("test-budget", who);
    expect(await allowRequest("test-budget", who, 1, 10)).toBe(true);
    expect(await allowRequest("test-budget", who, 1, 10)).toBe(false);
  });
});
