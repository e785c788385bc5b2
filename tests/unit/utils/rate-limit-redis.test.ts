import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectedRedis, startTestRedis, type TestRedis } from "../../support/redis-server";

// The same budgets through Redis (several nodes share them): env is read at import, so the
// module is loaded only once REDIS_URL points at a private redis-server.
let redis: TestRedis;
let limiter: typeof import("~/utils/rate-limit.server");
let connection: typeof import("~/utils/redis.server");

beforeAll(async () => {
  redis = await startTestRedis();
  process.env.REDIS_URL = redis.url();
  limiter = await import("~/utils/rate-limit.server");
  connection = await import("~/utils/redis.server");
  await connectedRedis(connection);
});
afterAll(async () => {
  await connection?.closeRedis?.();
  await redis?.stop();
});

describe("failure budgets in Redis", () => {
  it("a released hit frees its slot, and releases never take the count below zero", async () => {
    expect(connection.isRedisEnabled()).toBe(true);
    const who = `u${Math.random()}`;
    for (let i = 0; i < 2; i++) expect(await limiter.allowRequest("test-budget", who, 2, 600)).toBe(true);
    expect(await limiter.allowRequest("test-budget", who, 2, 600)).toBe(false);
    // The refused hit and one earlier one are given back: exactly one more fits.
    await limiter.releaseRequest("test-budget", who);
    await limiter.releaseRequest("test-budget", who);
    expect(await limiter.allowRequest("test-budget", who, 2, 600)).toBe(true);
    expect(await limiter.allowRequest("test-budget", who, 2, 600)).toBe(false);
    // More releases than hits (a window that ended meanwhile) leave the count at zero, not below.
    for (let i = 0; i < 5; i++) await limiter.releaseRequest("test-budget", who);
    expect(await limiter.allowRequest("test-budget", who, 2, 600)).toBe(true);
    expect(await limiter.allowRequest("test-budget", who, 2, 600)).toBe(true);
    expect(await limiter.allowRequest("test-budget", who, 2, 600)).toBe(false);
  });

  it("a count can be read without counting a hit", async () => {
    const who = `u${Math.random()}`;
    expect(await limiter.requestCount("test-count", who)).toBe(0);
    expect(await limiter.countRequest("test-count", who, 600)).toBe(1);
    expect(await limiter.countRequest("test-count", who, 600)).toBe(2);
    expect(await limiter.requestCount("test-count", who)).toBe(2);
    expect(await limiter.requestCount("test-count", who)).toBe(2);
  });
});

describe("a window always ends", () => {
  it("a count left without an expiry (its EXPIRE lost) gets one at the next hit, so the address is not locked out for good", async () => {
    const who = `u${Math.random()}`;
    const key = `${connection.redisNamespace()}ratelimit:test-expiry:${who}`;
    // As a dropped connection between INCR and EXPIRE left it: a count with no expiry.
    await connection.getRedis().set(key, "50");
    expect(await connection.getRedis().ttl(key)).toBe(-1);
    expect(await limiter.allowRequest("test-expiry", who, 20, 600)).toBe(false);
    const ttl = await connection.getRedis().ttl(key);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });
});
