import { env } from "./env.server";
import { getRedis, isRedisEnabled, redisNamespace } from "./redis.server";

/**
 * Fixed-window counters per bucket and IP. In Redis when configured (shared by every node: one
 * INCR and, on the first hit of a window, one EXPIRE); otherwise in a process-local map that is
 * swept so it cannot grow without bound (the reference's in-memory limiter leaked). While Redis
 * is unreachable the local map counts instead: sign-in keeps answering (it waited out a whole
 * 31 s outage) and stays limited per node.
 */
const local = new Map<string, { count: number; resetAt: number }>();
let lastSweep = Date.now();

function sweep(now: number) {
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  for (const [key, entry] of local) if (entry.resetAt <= now) local.delete(key);
}

// Counts a hit and makes sure the window ends (sets the expiry on the first hit, or on a count
// found without one).
const COUNT_SCRIPT =
  "local n = redis.call('incr', KEYS[1]) if n == 1 or redis.call('ttl', KEYS[1]) < 0 then redis.call('expire', KEYS[1], ARGV[1]) end return n";

/** Counts one hit in the bucket's current window and returns the window's count so far. */
export async function countRequest(bucket: string, ip: string, windowSeconds: number): Promise<number> {
  const key = `ratelimit:${bucket}:${ip}`;
  if (isRedisEnabled()) {
    const redis = getRedis();
    try {
      // One step: an INCR whose EXPIRE was lost (a dropped connection between two commands)
      // left a count that never expired, and its address locked out for good.
      return Number(await redis.eval(COUNT_SCRIPT, 1, redisNamespace() + key, windowSeconds));
    } catch {
      // Redis away (the command connection fails at once or within a second): count locally.
    }
  }
  const now = Date.now();
  sweep(now);
  const entry = local.get(key);
  if (!entry || entry.resetAt <= now) {
    local.set(key, { count: 1, resetAt: now + windowSeconds * 1000 });
    return 1;
  }
  entry.count += 1;
  return entry.count;
}

export async function allowRequest(bucket: string, ip: string, limit: number, windowSeconds: number): Promise<boolean> {
  return (await countRequest(bucket, ip, windowSeconds)) <= limit;
}

/** The bucket's count in its current window, without counting a hit (0 when none). */
export async function requestCount(bucket: string, ip: string): Promise<number> {
  const key = `ratelimit:${bucket}:${ip}`;
  if (isRedisEnabled()) {
    try {
      return Number((await getRedis().get(redisNamespace() + key)) ?? 0);
    } catch {
      // Redis away: hits were counted locally meanwhile (see countRequest).
    }
  }
  const entry = local.get(key);
  return entry && entry.resetAt > Date.now() ? entry.count : 0;
}

// Gives back one counted hit, never below zero: a hit taken in a window that has since ended must
// not lower the next window's count (and a DECR on a missing key would create one at -1 with no
// expiry: a budget that never runs out).
const RELEASE_SCRIPT =
  "local n = tonumber(redis.call('get', KEYS[1]) or '0') if n > 0 then return redis.call('decr', KEYS[1]) end return 0";

/**
 * Gives back a hit taken with allowRequest. For budgets of failures: every attempt takes a hit
 * before it runs (so a burst of parallel attempts cannot all slip under the limit) and the ones
 * that turn out not to be failures give theirs back.
 */
export async function releaseRequest(bucket: string, ip: string): Promise<void> {
  const key = `ratelimit:${bucket}:${ip}`;
  if (isRedisEnabled()) {
    try {
      await getRedis().eval(RELEASE_SCRIPT, 1, redisNamespace() + key);
      return;
    } catch {
      // Redis away: the hit was counted locally (see allowRequest).
    }
  }
  const entry = local.get(key);
  if (entry && entry.resetAt > Date.now() && entry.count > 0) entry.count -= 1;
}

/** Sign-in, registration, password reset and OAuth endpoints. */
export function allowCriticalRequest(ip: string): Promise<boolean> {
  return allowRequest("critical", ip, env.CRITICAL_RATE_LIMIT, env.CRITICAL_RATE_WINDOW_SECONDS);
}

/**
 * Gives back the hit a sign-in took once its password proved right: the limit is a budget of
 * failed guesses, so people who sign in often from one address (an office, a school) are never
 * locked out, and their successes do not starve registration or OAuth on that address.
 */
export function releaseCriticalRequest(ip: string): Promise<void> {
  return releaseRequest("critical", ip);
}

export const TOO_MANY_REQUESTS_MESSAGE = "错误：请求次数过多，请稍后再试！";
