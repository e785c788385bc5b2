import { localStep } from "./local-limits";
import { type LimitSpec, type StepAnswer } from "./limit-types";
import { redisAdd, redisStep } from "./redis-limits.server";
import { isRedisEnabled } from "./redis.server";

export { WINDOW_BUCKETS, type LimitSpec, type Slot, type StepAnswer, type WindowAnswer } from "./limit-types";

/**
 * Counters for limits that must hold across every node (docs/decisions/041-limits.md).
 *
 * A window is a sliding period cut into WINDOW_BUCKETS buckets (a minute: one-second buckets):
 * what was counted in the last period is the sum of its live buckets, and whether a request fits
 * is decided and counted in one step, so 16 requests racing for 5 places on two nodes get
 * exactly 5. In Redis that step is one Lua script (the clock is Redis's own TIME, so nodes with
 * drifting clocks share one window), and large limits are shared out to nodes in small batches
 * (redis-limits.server.ts); without Redis, or while it is unreachable, the same arithmetic runs
 * in this process (local-limits.ts; per node then: a Redis outage loosens limits, never stops
 * traffic). Bounded memory either way: at most WINDOW_BUCKETS numbers per counter.
 *
 * Slots count requests in flight (a key's concurrency): each holder has an expiry, so a node
 * killed while holding one gives it back when the expiry passes.
 *
 * Several counters are checked and counted in one step (`checkAndCount`): all fit and all are
 * counted, or the first that does not fit is reported and nothing is counted.
 */

/** Checks every counter and, when all fit, counts them all (at most one slot per step). */
export async function checkAndCount(specs: readonly LimitSpec[]): Promise<StepAnswer> {
  if (isRedisEnabled()) {
    try {
      return await redisStep(specs);
    } catch {
      // Redis away (its command connection fails at once, or within a second): this node counts alone.
    }
  }
  return localStep(specs);
}

/** Counts what a finished request used (its tokens, its success) whatever the window holds; `limit` is the limit it counts toward. */
export async function addToWindow(key: string, windowMs: number, amount: number, limit: number): Promise<void> {
  if (isRedisEnabled()) {
    try {
      return await redisAdd(key, windowMs, amount, limit);
    } catch {
      // Redis away: counted in this process.
    }
  }
  localStep([{ kind: "take", key, limit: Number.MAX_SAFE_INTEGER, windowMs, amount }]);
}
