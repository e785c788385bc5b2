import { randomUUID } from "node:crypto";
import { bucketMsOf, WINDOW_BUCKETS, type LimitSpec, type Slot, type StepAnswer } from "./limit-types";

/**
 * The limit counters' arithmetic in this process: the counters themselves without Redis, or
 * while it is unreachable (per node then). Bounded: at most WINDOW_BUCKETS numbers per window,
 * and counters untouched for a day are dropped.
 */
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

/** Every counter checked; all counted when all fit, none otherwise (the first full one reported). */
export function localStep(specs: readonly LimitSpec[]): StepAnswer {
  const now = Date.now();
  sweep(now);
  for (let i = 0; i < specs.length; i += 1) {
    const spec = specs[i]!;
    if (spec.kind === "slot") {
      const holders = liveSlots(spec.key, now);
      if (holders.size >= spec.limit) {
        const first = Math.min(...holders.values());
        return {
          allowed: false,
          refused: i,
          answer: { allowed: false, used: holders.size, retryAfterMs: Math.max(0, first - now) },
        };
      }
      continue;
    }
    const bucketMs = bucketMsOf(spec.windowMs);
    const { window, used } = liveWindow(spec.key, bucketMs, now);
    const amount = spec.amount ?? 1;
    const need = spec.kind === "take" ? used + amount - spec.limit : used - spec.limit + 1;
    if (need > 0)
      return {
        allowed: false,
        refused: i,
        answer: { allowed: false, used, retryAfterMs: retryAfter(window, need, bucketMs, now) },
      };
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
