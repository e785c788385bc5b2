import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { getPipelinedRedis, isRedisEnabled, redisNamespace } from "./redis.server";

/**
 * Counters for limits that must hold across every node (docs/decisions/041-limits.md).
 *
 * A window is a sliding period cut into WINDOW_BUCKETS buckets (a minute: one-second buckets):
 * what was counted in the last period is the sum of its live buckets, and whether a request fits
 * is decided and counted in one step, so 16 requests racing for 5 places on two nodes get
 * exactly 5. In Redis that step is one Lua script (the clock is Redis's own TIME, so nodes with
 * drifting clocks share one window); without Redis, or while it is unreachable, the same
 * arithmetic runs in this process (per node then: a Redis outage loosens limits, never stops
 * traffic). Bounded memory either way: at most WINDOW_BUCKETS numbers per counter.
 *
 * Slots count requests in flight (a key's concurrency): each holder has an expiry, so a node
 * killed while holding one gives it back when the expiry passes.
 *
 * Several counters are checked and counted in one step (`checkAndCount`): all fit and all are
 * counted, or the first that does not fit is reported and nothing is counted. One call's limits
 * are one script and one round trip, batched with the other calls of the same turn.
 */
export const WINDOW_BUCKETS = 60;

export type WindowAnswer = {
  allowed: boolean;
  /** What the window holds after this step. */
  used: number;
  /** When refused: milliseconds until enough of the window has passed for the request to fit. */
  retryAfterMs: number;
};

/**
 * One counter of a step. take: counts `amount` if the window then holds at most `limit`; peek:
 * fits while the window holds less than `limit` (for counts known only afterwards), counts
 * nothing; slot: holds one of `limit` places for `ttlMs`.
 */
export type LimitSpec =
  | { kind: "take" | "peek"; key: string; limit: number; windowMs: number; amount?: number }
  | { kind: "slot"; key: string; limit: number; ttlMs: number };

/** A slot held while a request runs; give it back with `release` (twice is harmless). */
export type Slot = { release(): void };

export type StepAnswer = { allowed: true; slot?: Slot } | { allowed: false; refused: number; answer: WindowAnswer };

// KEYS: one per spec. ARGV: the bucket count, then per spec its kind, limit, bucket ms (a slot:
// its ttl) and amount (a slot: its holder). Returns {1} when all fit and were counted, else
// {0, spec number (1-based), used, retry ms}.
const STEP_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local used = {}
local live = {}
for i = 1, #KEYS do
  local kind = ARGV[2 + (i - 1) * 4]
  local limit = tonumber(ARGV[3 + (i - 1) * 4])
  local span = tonumber(ARGV[4 + (i - 1) * 4])
  local amount = ARGV[5 + (i - 1) * 4]
  if kind == 'slot' then
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    local held = redis.call('ZCARD', KEYS[i])
    if held >= limit then
      local first = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
      return {0, i, held, math.max(0, tonumber(first[2] or now) - now)}
    end
  else
    amount = tonumber(amount)
    local current = math.floor(now / span)
    local oldest = current - n + 1
    local flat = redis.call('HGETALL', KEYS[i])
    local sum = 0
    local buckets = {}
    for j = 1, #flat, 2 do
      local b = tonumber(flat[j])
      if b < oldest then
        redis.call('HDEL', KEYS[i], flat[j])
      else
        local c = tonumber(flat[j + 1])
        sum = sum + c
        buckets[#buckets + 1] = {b, c}
      end
    end
    local need = 0
    if kind == 'take' and sum + amount > limit then need = sum + amount - limit end
    if kind == 'peek' and sum >= limit then need = sum - limit + 1 end
    if need > 0 then
      table.sort(buckets, function(a, b) return a[1] < b[1] end)
      local freed = 0
      local retry = n * span
      for _, e in ipairs(buckets) do
        freed = freed + e[2]
        if freed >= need then
          retry = (e[1] + n) * span - now
          break
        end
      end
      return {0, i, sum, retry}
    end
  end
end
for i = 1, #KEYS do
  local kind = ARGV[2 + (i - 1) * 4]
  local span = tonumber(ARGV[4 + (i - 1) * 4])
  local amount = ARGV[5 + (i - 1) * 4]
  if kind == 'slot' then
    redis.call('ZADD', KEYS[i], now + span, amount)
    redis.call('PEXPIRE', KEYS[i], span)
  elseif kind == 'take' then
    redis.call('HINCRBY', KEYS[i], string.format('%d', math.floor(now / span)), tonumber(amount))
    redis.call('PEXPIRE', KEYS[i], span * (n + 1))
  end
end
return {1}
`;

type LimitCommands = Redis & {
  switchyardLimitStep(...args: (string | number)[]): Promise<number[]>;
};

const defined = new WeakSet<Redis>();
function commands(): LimitCommands {
  const redis = getPipelinedRedis();
  if (!defined.has(redis)) {
    // EVALSHA with the script sent once (ioredis retries with EVAL after a NOSCRIPT).
    redis.defineCommand("switchyardLimitStep", { lua: STEP_SCRIPT });
    defined.add(redis);
  }
  return redis as LimitCommands;
}

const bucketMsOf = (windowMs: number) => Math.max(1, Math.round(windowMs / WINDOW_BUCKETS));

// ---- the in-process side: the same arithmetic, per node ----

type LocalWindow = { buckets: Map<number, number>; touched: number };
const localWindows = new Map<string, LocalWindow>();
const localSlots = new Map<string, Map<string, number>>();
let lastSweep = Date.now();

/** Drops counters untouched for longer than any window (a day), at most once a minute. */
function sweep(now: number): void {
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  for (const [key, window] of localWindows) if (now - window.touched > 86_400_000 + 60_000) localWindows.delete(key);
  for (const [key, holders] of localSlots) {
    for (const [holder, expiry] of holders) if (expiry <= now) holders.delete(holder);
    if (holders.size === 0) localSlots.delete(key);
  }
}

function liveWindow(key: string, bucketMs: number, now: number): { window: LocalWindow; used: number } {
  let window = localWindows.get(key);
  if (!window) {
    window = { buckets: new Map(), touched: now };
    localWindows.set(key, window);
  }
  window.touched = now;
  const oldest = Math.floor(now / bucketMs) - WINDOW_BUCKETS + 1;
  let used = 0;
  for (const [bucket, count] of window.buckets) {
    if (bucket < oldest) window.buckets.delete(bucket);
    else used += count;
  }
  return { window, used };
}

function retryAfter(window: LocalWindow, need: number, bucketMs: number, now: number): number {
  let freed = 0;
  for (const bucket of [...window.buckets.keys()].sort((a, b) => a - b)) {
    freed += window.buckets.get(bucket)!;
    if (freed >= need) return (bucket + WINDOW_BUCKETS) * bucketMs - now;
  }
  return WINDOW_BUCKETS * bucketMs;
}

function liveSlots(key: string, now: number): Map<string, number> {
  let holders = localSlots.get(key);
  if (!holders) {
    holders = new Map();
    localSlots.set(key, holders);
  }
  for (const [holder, expiry] of holders) if (expiry <= now) holders.delete(holder);
  return holders;
}

function localStep(specs: readonly LimitSpec[]): StepAnswer {
  const now = Date.now();
  sweep(now);
  for (let i = 0; i < specs.length; i += 1) {
    const spec = specs[i]!;
    if (spec.kind === "slot") {
      const holders = liveSlots(spec.key, now);
      if (holders.size >= spec.limit) {
        const first = Math.min(...holders.values());
        return { allowed: false, refused: i, answer: { allowed: false, used: holders.size, retryAfterMs: Math.max(0, first - now) } };
      }
      continue;
    }
    const bucketMs = bucketMsOf(spec.windowMs);
    const { window, used } = liveWindow(spec.key, bucketMs, now);
    const amount = spec.amount ?? 1;
    const need = spec.kind === "take" ? used + amount - spec.limit : used - spec.limit + 1;
    if (need > 0) return { allowed: false, refused: i, answer: { allowed: false, used, retryAfterMs: retryAfter(window, need, bucketMs, now) } };
  }
  let slot: Slot | undefined;
  for (const spec of specs) {
    if (spec.kind === "slot") {
      const holders = liveSlots(spec.key, now);
      const holder = randomUUID();
      holders.set(holder, now + spec.ttlMs);
      slot = { release: () => void holders.delete(holder) };
    } else if (spec.kind === "take") {
      const bucketMs = bucketMsOf(spec.windowMs);
      const { window } = liveWindow(spec.key, bucketMs, now);
      const current = Math.floor(now / bucketMs);
      window.buckets.set(current, (window.buckets.get(current) ?? 0) + (spec.amount ?? 1));
    }
  }
  return { allowed: true, slot };
}

/**
 * Checks every counter and, when all fit, counts them all (at most one slot per step). Redis
 * away: this node counts alone (its command connection fails at once, or within a second).
 */
export async function checkAndCount(specs: readonly LimitSpec[]): Promise<StepAnswer> {
  if (isRedisEnabled()) {
    try {
      const namespace = redisNamespace();
      const keys: string[] = [];
      const args: (string | number)[] = [WINDOW_BUCKETS];
      let holder: { name: string; id: string } | undefined;
      for (const spec of specs) {
        keys.push(namespace + spec.key);
        if (spec.kind === "slot") {
          const id = randomUUID();
          holder = { name: namespace + spec.key, id };
          args.push("slot", spec.limit, spec.ttlMs, id);
        } else {
          args.push(spec.kind, spec.limit, bucketMsOf(spec.windowMs), spec.amount ?? 1);
        }
      }
      const reply = await commands().switchyardLimitStep(keys.length, ...keys, ...args);
      if (reply[0] !== 1) return { allowed: false, refused: reply[1]! - 1, answer: { allowed: false, used: reply[2]!, retryAfterMs: Math.max(0, reply[3]!) } };
      if (!holder) return { allowed: true };
      const held = holder;
      let released = false;
      return {
        allowed: true,
        slot: {
          release() {
            if (released) return;
            released = true;
            // Fire and forget: a lost release lapses with the slot's expiry.
            getPipelinedRedis().zrem(held.name, held.id).catch(() => undefined);
          },
        },
      };
    } catch {
      // Redis away: counted in this process below.
    }
  }
  return localStep(specs);
}

/** Counts what a finished request used (its tokens, its success) whatever the window holds. */
export async function addToWindow(key: string, windowMs: number, amount: number): Promise<void> {
  await checkAndCount([{ kind: "take", key, limit: Number.MAX_SAFE_INTEGER, windowMs, amount }]);
}

/** One window, taken: `amount` counted if the window then holds at most `limit`. */
export async function takeFromWindow(key: string, limit: number, windowMs: number, amount = 1): Promise<WindowAnswer> {
  const step = await checkAndCount([{ kind: "take", key, limit, windowMs, amount }]);
  return step.allowed ? { allowed: true, used: 0, retryAfterMs: 0 } : step.answer;
}

/** One window, read: whether it still holds less than `limit`. */
export async function windowHasRoom(key: string, limit: number, windowMs: number): Promise<WindowAnswer> {
  const step = await checkAndCount([{ kind: "peek", key, limit, windowMs }]);
  return step.allowed ? { allowed: true, used: 0, retryAfterMs: 0 } : step.answer;
}

/** One of `max` slots for up to `ttlMs`, or undefined when all are held. */
export async function acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined> {
  const step = await checkAndCount([{ kind: "slot", key, limit: max, ttlMs }]);
  return step.allowed ? step.slot : undefined;
}
