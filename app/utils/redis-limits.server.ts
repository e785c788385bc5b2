import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { bucketMsOf, WINDOW_BUCKETS, type LimitSpec, type Slot, type StepAnswer } from "./limit-types";
import { GIVE_BACK_SCRIPT, STEP_SCRIPT } from "./limit-scripts";
import { getPipelinedRedis, redisNamespace } from "./redis.server";

/**
 * The limit counters in Redis, shared by every node (window-limits.server.ts has the model).
 *
 * A step is one Lua script: every counter checked, all counted or none. A limit of
 * POOLED_FROM or more is also shared out to nodes in small batches, so most calls are answered
 * by this node alone: a take asks for up to BATCH places (counted in Redis at once) and keeps
 * the rest for the next calls, for the rest of its bucket (one second of a minute's window),
 * then gives back what it did not use; a slot leases a few holders and lends them to calls in
 * turn. Nothing is ever admitted past a limit (every place handed out was counted in Redis); a
 * node holds at most 1/64 of a limit for at most a bucket. Smaller limits are counted call by
 * call, exactly. Read-only counters (tokens per minute, successes) are read at most every
 * PEEK_FRESH_MS, and what this node adds to them is sent in one write every FLUSH_MS.
 */
const POOLED_FROM = 1000;
const PEEK_FRESH_MS = 200;
const FLUSH_MS = 100;
const SLOT_IDLE_MS = 1000;

type LimitCommands = Redis & {
  switchyardLimitStep(...args: (string | number)[]): Promise<number[]>;
  switchyardGiveBack(key: string, field: string, amount: number): Promise<number>;
};

const defined = new WeakSet<Redis>();
function commands(): LimitCommands {
  const redis = getPipelinedRedis();
  if (!defined.has(redis)) {
    // EVALSHA with the script sent once (ioredis retries with EVAL after a NOSCRIPT).
    redis.defineCommand("switchyardLimitStep", { lua: STEP_SCRIPT });
    redis.defineCommand("switchyardGiveBack", { numberOfKeys: 1, lua: GIVE_BACK_SCRIPT });
    defined.add(redis);
  }
  return redis as LimitCommands;
}

const batchFor = (limit: number) => Math.min(64, Math.floor(limit / 64));
const slotBatchFor = (limit: number) => Math.min(16, Math.floor(limit / 64));

type TakeShare = { left: number; expiresAt: number; name: string; field: string };
type Holder = { id: string; expiresAt: number; idleSince: number };
type SlotShare = { name: string; ttlMs: number; idle: Holder[] };
const takeShares = new Map<string, TakeShare>();
const slotShares = new Map<string, SlotShare>();
const peeks = new Map<string, { sum: number; at: number }>();
const pendingAdds = new Map<string, { amount: number; windowMs: number }>();
let timer: NodeJS.Timeout | undefined;
let ticks = 0;

function giveBack(share: TakeShare): void {
  if (share.left > 0)
    commands()
      .switchyardGiveBack(share.name, share.field, share.left)
      .catch(() => undefined);
  share.left = 0;
}

function dropHolder(name: string, holder: Holder): void {
  getPipelinedRedis()
    .zrem(name, holder.id)
    .catch(() => undefined);
}

/** Every FLUSH_MS: this node's adds go out; every second: expired shares and idle holders go back. */
function tick(): void {
  for (const [key, add] of pendingAdds) {
    void step([
      { kind: "take", key, limit: Number.MAX_SAFE_INTEGER, windowMs: add.windowMs, amount: add.amount },
    ]).catch(() => undefined);
  }
  pendingAdds.clear();
  ticks += 1;
  if (ticks % Math.round(1000 / FLUSH_MS) !== 0) return;
  const now = Date.now();
  for (const [key, share] of takeShares) {
    if (now < share.expiresAt) continue;
    giveBack(share);
    takeShares.delete(key);
  }
  for (const [key, share] of slotShares) {
    share.idle = share.idle.filter((holder) => {
      if (now - holder.idleSince < SLOT_IDLE_MS) return true;
      dropHolder(share.name, holder);
      return false;
    });
    if (share.idle.length === 0) slotShares.delete(key);
  }
  for (const [key, seen] of peeks) if (now - seen.at > PEEK_FRESH_MS) peeks.delete(key);
}

function ensureTimer(): void {
  if (timer) return;
  timer = setInterval(tick, FLUSH_MS);
  timer.unref();
}

/** A slot lent from this node's share: back to the share when released (or to Redis once past half its life). */
function lentSlot(share: SlotShare, holder: Holder): Slot {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const now = Date.now();
      if (holder.expiresAt - now > share.ttlMs / 2) {
        holder.idleSince = now;
        share.idle.push(holder);
      } else dropHolder(share.name, holder);
    },
  };
}

/** A slot of a small limit: given back to Redis as soon as it is released (fire and forget: a lost release lapses with its expiry). */
function lentOnce(name: string, id: string): Slot {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      getPipelinedRedis()
        .zrem(name, id)
        .catch(() => undefined);
    },
  };
}

/** The step answered by this node's shares alone, or undefined when one counter needs Redis. */
function fromShares(specs: readonly LimitSpec[]): StepAnswer | undefined {
  const now = Date.now();
  for (const spec of specs) {
    if (spec.kind === "peek") {
      const seen = peeks.get(spec.key);
      if (spec.limit < POOLED_FROM || !seen || now - seen.at > PEEK_FRESH_MS || seen.sum >= spec.limit)
        return undefined;
    } else if (spec.kind === "take") {
      const share = takeShares.get(spec.key);
      if (spec.limit < POOLED_FROM || (spec.amount ?? 1) !== 1 || !share || share.left < 1 || now >= share.expiresAt)
        return undefined;
    } else {
      const share = slotShares.get(spec.key);
      if (spec.limit < POOLED_FROM || !share || !share.idle.some((holder) => holder.expiresAt - now > share.ttlMs / 2))
        return undefined;
    }
  }
  let slot: Slot | undefined;
  for (const spec of specs) {
    if (spec.kind === "take") takeShares.get(spec.key)!.left -= 1;
    else if (spec.kind === "slot") {
      const share = slotShares.get(spec.key)!;
      share.idle = share.idle.filter(
        (holder) => holder.expiresAt - now > share.ttlMs / 2 || (dropHolder(share.name, holder), false),
      );
      slot = lentSlot(share, share.idle.pop()!);
    }
  }
  return { allowed: true, slot };
}

/** Sends this node's pending adds to the counters a step is about to read, so it reads them. */
async function flushAddsFor(specs: readonly LimitSpec[]): Promise<void> {
  const sending: Promise<unknown>[] = [];
  for (const spec of specs) {
    const add = spec.kind === "peek" ? pendingAdds.get(spec.key) : undefined;
    if (!add) continue;
    pendingAdds.delete(spec.key);
    sending.push(
      step([
        { kind: "take", key: spec.key, limit: Number.MAX_SAFE_INTEGER, windowMs: add.windowMs, amount: add.amount },
      ]),
    );
  }
  await Promise.all(sending);
}

async function step(specs: readonly LimitSpec[]): Promise<StepAnswer> {
  if (pendingAdds.size > 0) await flushAddsFor(specs);
  const namespace = redisNamespace();
  const keys: string[] = [];
  const args: (string | number)[] = [WINDOW_BUCKETS];
  const prefixes: string[] = [];
  for (const spec of specs) {
    keys.push(namespace + spec.key);
    if (spec.kind === "slot") {
      const prefix = randomUUID();
      prefixes.push(prefix);
      args.push(
        "slot",
        spec.limit,
        spec.ttlMs,
        prefix,
        spec.limit >= POOLED_FROM ? Math.max(1, slotBatchFor(spec.limit)) : 1,
      );
    } else {
      const amount = spec.kind === "take" ? (spec.amount ?? 1) : 0;
      const want =
        spec.kind === "take" && amount === 1 && spec.limit >= POOLED_FROM ? Math.max(1, batchFor(spec.limit)) : amount;
      args.push(spec.kind, spec.limit, bucketMsOf(spec.windowMs), amount, want);
    }
  }
  const reply = await commands().switchyardLimitStep(keys.length, ...keys, ...args);
  if (reply[0] !== 1)
    return {
      allowed: false,
      refused: reply[1]! - 1,
      answer: { allowed: false, used: reply[2]!, retryAfterMs: Math.max(0, reply[3]!) },
    };
  const redisNow = reply[1]!;
  const now = Date.now();
  let slot: Slot | undefined;
  let slotIndex = 0;
  specs.forEach((spec, i) => {
    const granted = reply[i + 2]!;
    if (spec.kind === "peek") {
      peeks.set(spec.key, { sum: granted, at: now });
    } else if (spec.kind === "take") {
      const amount = spec.amount ?? 1;
      if (granted <= amount) return;
      const bucketMs = bucketMsOf(spec.windowMs);
      const field = String(Math.floor(redisNow / bucketMs));
      const old = takeShares.get(spec.key);
      if (old && old.field === field && now < old.expiresAt) {
        old.left += granted - amount;
        return;
      }
      if (old) giveBack(old);
      takeShares.set(spec.key, {
        left: granted - amount,
        expiresAt: now + (bucketMs - (redisNow % bucketMs)),
        name: keys[i]!,
        field,
      });
      ensureTimer();
    } else {
      const { ttlMs } = spec as Extract<LimitSpec, { kind: "slot" }>;
      const prefix = prefixes[slotIndex++]!;
      if (spec.limit < POOLED_FROM) {
        // Counted call by call: the place goes straight back to Redis.
        slot = lentOnce(keys[i]!, `${prefix}:1`);
        return;
      }
      const holders: Holder[] = Array.from({ length: granted }, (_, j) => ({
        id: `${prefix}:${j + 1}`,
        expiresAt: now + ttlMs,
        idleSince: now,
      }));
      let share = slotShares.get(spec.key);
      if (!share) {
        share = { name: keys[i]!, ttlMs, idle: [] };
        slotShares.set(spec.key, share);
      }
      share.idle.push(...holders.slice(1));
      if (holders.length > 1) ensureTimer();
      slot = lentSlot(share, holders[0]!);
    }
  });
  return { allowed: true, slot };
}

const isShared = (spec: LimitSpec) =>
  spec.limit >= POOLED_FROM && (spec.kind === "slot" || (spec.kind === "take" && (spec.amount ?? 1) === 1));

// One refill in flight per shared counter: the calls that find its share empty meanwhile wait
// for it and take from what it brought, instead of each asking Redis for a batch of its own
// (a burst of such asks would reserve the whole limit at once and refuse the burst itself).
const refilling = new Map<string, Promise<unknown>>();
const MAX_WAITS = 1000;

/** One step in Redis, answered by this node's shares when they can (see above). Throws when Redis cannot answer. */
export async function redisStep(specs: readonly LimitSpec[]): Promise<StepAnswer> {
  const shared = specs.filter(isShared).map((spec) => spec.key);
  for (let waits = 0; ; waits += 1) {
    const local = fromShares(specs);
    if (local) return local;
    const inFlight = shared.map((key) => refilling.get(key)).filter((running) => running !== undefined);
    if (inFlight.length === 0 || waits >= MAX_WAITS) break;
    await Promise.all(inFlight.map((running) => running.catch(() => undefined)));
  }
  const running = step(specs);
  for (const key of shared) refilling.set(key, running);
  try {
    return await running;
  } finally {
    for (const key of shared) if (refilling.get(key) === running) refilling.delete(key);
  }
}

/**
 * Counts what a finished call used: for a limit of POOLED_FROM or more, sent with this node's
 * other adds within FLUSH_MS; for a smaller one at once.
 */
export async function redisAdd(key: string, windowMs: number, amount: number, limit: number): Promise<void> {
  if (limit < POOLED_FROM) {
    await step([{ kind: "take", key, limit: Number.MAX_SAFE_INTEGER, windowMs, amount }]);
    return;
  }
  const pending = pendingAdds.get(key);
  if (pending) pending.amount += amount;
  else pendingAdds.set(key, { amount, windowMs });
  const seen = peeks.get(key);
  if (seen) seen.sum += amount;
  ensureTimer();
}
