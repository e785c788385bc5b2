import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { getRedis, isRedisEnabled, redisNamespace } from "./redis.server";

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
 */
export const WINDOW_BUCKETS = 60;

export type WindowAnswer = {
  allowed: boolean;
  /** What the window holds after this step. */
  used: number;
  /** When refused: milliseconds until enough of the window has passed for the request to fit. */
  retryAfterMs: number;
};

// take: counts `amount` if the window then holds at most `limit`; peek: allowed while the window
// holds less than `limit`, counts nothing; add: counts `amount` whatever it holds.
type WindowMode = "take" | "peek" | "add";

const WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local bucketMs = tonumber(ARGV[2])
local amount = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
local mode = ARGV[5]
local current = math.floor(now / bucketMs)
local oldest = current - n + 1
local flat = redis.call('HGETALL', KEYS[1])
local used = 0
local live = {}
for i = 1, #flat, 2 do
  local b = tonumber(flat[i])
  if b < oldest then
    redis.call('HDEL', KEYS[1], flat[i])
  else
    local c = tonumber(flat[i + 1])
    used = used + c
    live[#live + 1] = {b, c}
  end
end
local allowed = 1
if mode == 'take' and used + amount > limit then allowed = 0 end
if mode == 'peek' and used >= limit then allowed = 0 end
if allowed == 1 and mode ~= 'peek' then
  redis.call('HINCRBY', KEYS[1], string.format('%d', current), amount)
  redis.call('PEXPIRE', KEYS[1], bucketMs * (n + 1))
  used = used + amount
end
local retry = 0
if allowed == 0 then
  local need = used - limit + 1
  if mode == 'take' then need = used + amount - limit end
  table.sort(live, function(a, b) return a[1] < b[1] end)
  local freed = 0
  retry = n * bucketMs
  for _, e in ipairs(live) do
    freed = freed + e[2]
    if freed >= need then
      retry = (e[1] + n) * bucketMs - now
      break
    end
  end
end
return {allowed, used, retry}
`;

const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;

type LimitCommands = Redis & {
  switchyardWindow(key: string, limit: number, bucketMs: number, amount: number, buckets: number, mode: WindowMode): Promise<[number, number, number]>;
  switchyardAcquire(key: string, max: number, ttlMs: number, holder: string): Promise<number>;
};

const defined = new WeakSet<Redis>();
function commands(): LimitCommands {
  const redis = getRedis();
  if (!defined.has(redis)) {
    // EVALSHA with the script sent once (ioredis retries with EVAL after a NOSCRIPT).
    redis.defineCommand("switchyardWindow", { numberOfKeys: 1, lua: WINDOW_SCRIPT });
    redis.defineCommand("switchyardAcquire", { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
    defined.add(redis);
  }
  return redis as LimitCommands;
}

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

function localWindow(key: string, limit: number, bucketMs: number, amount: number, mode: WindowMode): WindowAnswer {
  const now = Date.now();
  sweep(now);
  const current = Math.floor(now / bucketMs);
  const oldest = current - WINDOW_BUCKETS + 1;
  let window = localWindows.get(key);
  if (!window) {
    window = { buckets: new Map(), touched: now };
    localWindows.set(key, window);
  }
  window.touched = now;
  let used = 0;
  for (const [bucket, count] of window.buckets) {
    if (bucket < oldest) window.buckets.delete(bucket);
    else used += count;
  }
  const allowed = mode === "add" || (mode === "take" ? used + amount <= limit : used < limit);
  if (allowed && mode !== "peek") {
    window.buckets.set(current, (window.buckets.get(current) ?? 0) + amount);
    used += amount;
  }
  if (allowed) return { allowed, used, retryAfterMs: 0 };
  const need = mode === "take" ? used + amount - limit : used - limit + 1;
  let freed = 0;
  for (const bucket of [...window.buckets.keys()].sort((a, b) => a - b)) {
    freed += window.buckets.get(bucket)!;
    if (freed >= need) return { allowed, used, retryAfterMs: (bucket + WINDOW_BUCKETS) * bucketMs - now };
  }
  return { allowed, used, retryAfterMs: WINDOW_BUCKETS * bucketMs };
}

async function windowStep(key: string, limit: number, windowMs: number, amount: number, mode: WindowMode): Promise<WindowAnswer> {
  const bucketMs = Math.max(1, Math.round(windowMs / WINDOW_BUCKETS));
  if (isRedisEnabled()) {
    try {
      const [allowed, used, retry] = await commands().switchyardWindow(redisNamespace() + key, limit, bucketMs, amount, WINDOW_BUCKETS, mode);
      return { allowed: allowed === 1, used, retryAfterMs: Math.max(0, retry) };
    } catch {
      // Redis away (its command connection fails at once, or within a second): this node counts alone.
    }
  }
  return localWindow(key, limit, bucketMs, amount, mode);
}

/** Counts `amount` in the window if it then holds at most `limit`; refuses (counting nothing) otherwise. */
export function takeFromWindow(key: string, limit: number, windowMs: number, amount = 1): Promise<WindowAnswer> {
  return windowStep(key, limit, windowMs, amount, "take");
}

/** Whether the window still holds less than `limit` (for counts known only afterwards: tokens, successes). */
export function windowHasRoom(key: string, limit: number, windowMs: number): Promise<WindowAnswer> {
  return windowStep(key, limit, windowMs, 0, "peek");
}

/** Counts what a finished request used (its tokens, its success) whatever the window holds. */
export function addToWindow(key: string, windowMs: number, amount: number): Promise<WindowAnswer> {
  return windowStep(key, Number.MAX_SAFE_INTEGER, windowMs, amount, "add");
}

/** A slot held while a request runs; give it back with `release` (twice is harmless). */
export type Slot = { release(): void };

/**
 * Takes one of `max` slots for up to `ttlMs` (then it lapses, so a holder that died gives it
 * back), or undefined when all are held.
 */
export async function acquireSlot(key: string, max: number, ttlMs: number): Promise<Slot | undefined> {
  const holder = randomUUID();
  if (isRedisEnabled()) {
    try {
      const name = redisNamespace() + key;
      const got = await commands().switchyardAcquire(name, max, ttlMs, holder);
      if (got !== 1) return undefined;
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          // Fire and forget: a lost release lapses with the slot's expiry.
          getRedis().zrem(name, holder).catch(() => undefined);
        },
      };
    } catch {
      // Redis away: this node counts alone.
    }
  }
  const now = Date.now();
  sweep(now);
  let holders = localSlots.get(key);
  if (!holders) {
    holders = new Map();
    localSlots.set(key, holders);
  }
  for (const [other, expiry] of holders) if (expiry <= now) holders.delete(other);
  if (holders.size >= max) return undefined;
  holders.set(holder, now + ttlMs);
  const owned = holders;
  return { release: () => void owned.delete(holder) };
}
