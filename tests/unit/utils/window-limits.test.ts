import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Slot, StepAnswer, WindowAnswer } from "~/utils/window-limits.server";
import { connectedRedis, startTestRedis, type TestRedis } from "../../support/redis-server";

// The same limits in process and through Redis (env is read at import: each mode gets its own
// module instance). Windows are short here (600 ms: 10 ms buckets) so sliding is seen in real time.
type Limits = typeof import("~/utils/window-limits.server");
let redis: TestRedis;
type Counters = ReturnType<typeof withSingleCounterSteps>;
let inProcess: Counters;
let shared: Counters;

/** One-counter steps, spelt out over checkAndCount (the app always checks its counters together). */
function withSingleCounterSteps(limits: Limits) {
  const taken = (step: StepAnswer): WindowAnswer =>
    step.allowed ? { allowed: true, used: 0, retryAfterMs: 0 } : step.answer;
  return {
    ...limits,
    takeFromWindow: async (key: string, limit: number, windowMs: number, amount = 1) =>
      taken(await limits.checkAndCount([{ kind: "take", key, limit, windowMs, amount }])),
    windowHasRoom: async (key: string, limit: number, windowMs: number) =>
      taken(await limits.checkAndCount([{ kind: "peek", key, limit, windowMs }])),
    acquireSlot: async (key: string, max: number, ttlMs: number): Promise<Slot | undefined> => {
      const step = await limits.checkAndCount([{ kind: "slot", key, limit: max, ttlMs }]);
      return step.allowed ? step.slot : undefined;
    },
  };
}
let connection: typeof import("~/utils/redis.server");

beforeAll(async () => {
  delete process.env.REDIS_URL;
  inProcess = withSingleCounterSteps(await import("~/utils/window-limits.server"));
  redis = await startTestRedis();
  process.env.REDIS_URL = redis.url();
  const { vi } = await import("vitest");
  vi.resetModules();
  shared = withSingleCounterSteps(await import("~/utils/window-limits.server"));
  connection = await import("~/utils/redis.server");
  await connectedRedis(connection);
});
afterAll(async () => {
  await connection?.closeRedis?.();
  await redis?.stop();
  delete process.env.REDIS_URL;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each([
  ["in process", () => inProcess],
  ["in Redis", () => shared],
])("window limits %s", (_name, limits) => {
  it("lets exactly `limit` of many racing requests through, and says when the next fits", async () => {
    const key = `t:${Math.random()}`;
    const answers = await Promise.all(Array.from({ length: 16 }, () => limits().takeFromWindow(key, 5, 60_000)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(5);
    const refused = answers.find((a) => !a.allowed)!;
    expect(refused.used).toBe(5);
    // The first place frees a minute after it was taken: a little under 60 s from now.
    expect(refused.retryAfterMs).toBeGreaterThan(55_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it("slides: places taken a window ago are free again, and a refusal counts nothing", async () => {
    const key = `t:${Math.random()}`;
    for (let i = 0; i < 3; i++) expect((await limits().takeFromWindow(key, 3, 600)).allowed).toBe(true);
    const lastTaken = Date.now();
    const refused = await limits().takeFromWindow(key, 3, 600);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(600);
    // Until the first place frees; on a busy machine the three were not taken at one instant,
    // so the wait lasts until the last of them is a window old.
    await sleep(Math.max(refused.retryAfterMs, lastTaken + 600 - Date.now()) + 30);
    // The whole window has passed: three places again, not four.
    for (let i = 0; i < 3; i++) expect((await limits().takeFromWindow(key, 3, 600)).allowed).toBe(true);
    expect((await limits().takeFromWindow(key, 3, 600)).allowed).toBe(false);
  });

  it("counts tokens after the fact: room while under the limit, refused at it until the window passes", async () => {
    const key = `t:${Math.random()}`;
    expect((await limits().windowHasRoom(key, 1000, 600)).allowed).toBe(true);
    await limits().addToWindow(key, 600, 700, 1000);
    expect((await limits().windowHasRoom(key, 1000, 600)).allowed).toBe(true);
    // One call may overshoot (its tokens are known only once it ran); the next is refused.
    await limits().addToWindow(key, 600, 900, 1000);
    const full = await limits().windowHasRoom(key, 1000, 600);
    expect(full).toMatchObject({ allowed: false, used: 1600 });
    expect(full.retryAfterMs).toBeGreaterThan(0);
    await sleep(650);
    expect((await limits().windowHasRoom(key, 1, 600)).allowed).toBe(true);
  });

  it("checks several counters in one step: all are counted, or none when one is full", async () => {
    const [a, b] = [`t:${Math.random()}`, `t:${Math.random()}`];
    const step = (limitB: number) =>
      limits().checkAndCount([
        { kind: "take", key: a, limit: 10, windowMs: 60_000 },
        { kind: "take", key: b, limit: limitB, windowMs: 60_000 },
      ]);
    expect((await step(1)).allowed).toBe(true);
    const refused = await step(1);
    expect(refused).toMatchObject({ allowed: false, refused: 1, answer: { used: 1 } });
    // The refusal took nothing from the first counter: 9 places are left in it, not 8.
    const left = await Promise.all(Array.from({ length: 12 }, () => limits().takeFromWindow(a, 10, 60_000)));
    expect(left.filter((x) => x.allowed)).toHaveLength(9);
  });

  it("holds at most `max` slots at once; a released slot is free again, and one never released lapses", async () => {
    const key = `s:${Math.random()}`;
    const slots = await Promise.all(Array.from({ length: 5 }, () => limits().acquireSlot(key, 2, 300)));
    const held = slots.filter(Boolean);
    expect(held).toHaveLength(2);
    held[0]!.release();
    held[0]!.release();
    await sleep(20);
    const again = await limits().acquireSlot(key, 2, 300);
    expect(again).toBeDefined();
    expect(await limits().acquireSlot(key, 2, 300)).toBeUndefined();
    // Nobody releases: after the expiry both places are free.
    await sleep(350);
    expect(await limits().acquireSlot(key, 2, 300)).toBeDefined();
    expect(await limits().acquireSlot(key, 2, 300)).toBeDefined();
  });
});

it("the Redis side keeps its counts in Redis, where every node sees them", async () => {
  const key = `t:${Math.random()}`;
  await shared.takeFromWindow(key, 5, 60_000);
  expect(await connection.getPipelinedRedis().exists(connection.redisNamespace() + key)).toBe(1);
  // A second module instance (another node) sees the place taken.
  expect((await shared.takeFromWindow(key, 1, 60_000)).allowed).toBe(false);
});

/** Another node: its own module instances (its own shares), connected to the same Redis. */
async function anotherNode(): Promise<Counters> {
  const { vi } = await import("vitest");
  vi.resetModules();
  const redisModule = await import("~/utils/redis.server");
  const limits = await import("~/utils/window-limits.server");
  await connectedRedis(redisModule);
  others.push(redisModule);
  return withSingleCounterSteps(limits);
}
const others: (typeof import("~/utils/redis.server"))[] = [];
afterAll(async () => {
  for (const other of others) await other.closeRedis();
});

describe("large limits shared out to nodes in batches", () => {
  it("never admit past the limit: two nodes, 1,500 racing calls for 1,000 places get exactly 1,000", async () => {
    const other = await anotherNode();
    const key = `big:${Math.random()}`;
    const answers = await Promise.all(
      Array.from({ length: 1500 }, (_, i) => (i % 2 ? shared : other).takeFromWindow(key, 1000, 60_000)),
    );
    expect(answers.filter((a) => a.allowed)).toHaveLength(1000);
  });

  it("give back within a couple of seconds what a node took and did not use", async () => {
    const other = await anotherNode();
    const key = `big:${Math.random()}`;
    // One call on this node takes a batch; the rest of it waits here unused.
    expect((await shared.takeFromWindow(key, 1000, 60_000)).allowed).toBe(true);
    await sleep(2_200);
    const answers = await Promise.all(Array.from({ length: 1000 }, () => other.takeFromWindow(key, 1000, 60_000)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(999);
  });
});
