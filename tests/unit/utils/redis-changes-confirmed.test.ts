import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectedRedis, startTestRedis, type TestRedis } from "../../support/redis-server";

// Two nodes of one deployment in one process: each module instance has its own origin and its
// own Redis connections, as two processes would.
let redis: TestRedis;
let first: typeof import("~/utils/redis.server");
let second: typeof import("~/utils/redis.server");
const CHANNEL = "token-changed";

async function node(): Promise<typeof import("~/utils/redis.server")> {
  vi.resetModules();
  const connection = await import("~/utils/redis.server");
  await connectedRedis(connection);
  return connection;
}

/** Subscribes, and waits until Redis counts `listeners` on the channel. */
async function subscribed(
  connection: typeof import("~/utils/redis.server"),
  handler: (m: string) => void,
  listeners: number,
) {
  await connection.subscribe(CHANNEL, handler);
  const name = `${connection.redisNamespace()}${CHANNEL}`;
  const counted = async () => ((await connection.getRedis().pubsub("NUMSUB", name)) as [string, number])[1];
  for (let i = 0; i < 100 && (await counted()) < listeners; i += 1) await new Promise((r) => setTimeout(r, 10));
}

beforeAll(async () => {
  redis = await startTestRedis();
  process.env.REDIS_URL = redis.url();
  process.env.REDIS_PREFIX = "confirmed-changes";
  first = await node();
  second = await node();
});
afterAll(async () => {
  await first?.closeRedis();
  await second?.closeRedis();
  await redis?.stop();
});

describe("a change published to the other nodes", () => {
  it("is applied by every other node before the publish returns (a disabled token is refused everywhere at once)", async () => {
    const seenByFirst: string[] = [];
    const seenBySecond: string[] = [];
    await subscribed(first, (m) => seenByFirst.push(m), 1);
    await subscribed(second, (m) => seenBySecond.push(m), 2);
    for (const hash of ["h1", "h2", "h3"]) {
      await first.publish(CHANNEL, hash);
      // Synchronously after the publish: the other node has already dropped what it cached.
      expect(seenBySecond.at(-1)).toBe(hash);
    }
    // Each node applies each change once: its own at once, never its echo.
    expect(seenByFirst).toEqual(["h1", "h2", "h3"]);
    expect(seenBySecond).toEqual(["h1", "h2", "h3"]);
  });

  it("waits a bounded time for a listener that never confirms, and says so", async () => {
    // Something subscribed to the channel that is not a node (a redis-cli left open).
    const stranger = new Redis(redis.url());
    await stranger.subscribe(`${first.redisNamespace()}${CHANNEL}`);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const started = performance.now();
      await first.publish(CHANNEL, "h4");
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThan(first.CONFIRM_WAIT_MS - 50);
      expect(waited).toBeLessThan(first.CONFIRM_WAIT_MS + 500);
      expect(warn.mock.calls.join("\n")).toMatch(/1 listener\(s\) did not confirm/);
    } finally {
      warn.mockRestore();
      stranger.disconnect();
    }
  });

  it("does not wait for Redis when it is away", async () => {
    await redis.stop();
    try {
      const started = performance.now();
      await first.publish(CHANNEL, "h5");
      expect(performance.now() - started).toBeLessThan(200);
    } finally {
      await redis.start();
    }
  });
});
