import { subscribe } from "~/utils/redis.server";
import { TOKEN_CHANGED_CHANNEL } from "~/domain/tokens/tokens.server";
import { USER_CHANGED_CHANNEL } from "~/domain/users/manage.server";
import { NODE_ID } from "./node-liveness.server";
import { returnLease, takeLease, trimLease, type ConsumeLog, type Settlement } from "./lease-store.server";
import { billingWritten, closeJournal, journalCharge, journalRegistered, queueLeaseWork, whenLeaseMissing } from "./settlement-writer.server";

export type { ConsumeLog } from "./lease-store.server";
export { billingWritten, chargesJournaled } from "./settlement-writer.server";

/**
 * Money on the relay path, with no database round trip in it (DESIGN.md §6):
 *
 *  lease   — a slice of the payer's free balance (user, and token unless unlimited) moved into
 *            this node's lease by one conditional statement; both or neither, never below zero;
 *  reserve — take a request's estimate from the lease, in memory (a new slice when it runs dry);
 *  settle  — swap the hold for the real charge, append it to the local journal, deliver; the
 *            settlement writer then writes charges, counters and usage logs in batches;
 *  refund  — give a hold back to the lease (failed call), in memory;
 *  return  — an idle lease, or one whose payer changed, goes back to the free balance.
 *
 * However many requests race, holds never exceed what leases hold, and leases never exceed the
 * free balance, so no user or token goes below zero. A crash loses nothing: holds die with the
 * process (their lease is returned by crash recovery) and settled charges are in the journal.
 */

export type Payer = { userId: number; tokenId: number; tokenUnlimited: boolean; tokenKeyHash: string };
export type Reservation = { amount: number; lease: Lease };
export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; reason: "user" | "token" };

type Lease = {
  id: number;
  userId: number;
  tokenId: number;
  limited: boolean;
  keyHash: string;
  /** What the lease row will hold once every journaled settlement is written. */
  funded: number;
  /** Sum of open holds. */
  held: number;
  lastUsed: number;
  /** The database no longer has it (returned): no new holds. */
  gone: boolean;
  /** Its return is queued: no new holds. */
  returning?: boolean;
  onReturned: (() => void)[];
};

/** A new slice covers this many requests like the one asking (and at least the holds open). */
const SLICE_REQUESTS = 16;
const IDLE_RETURN_MS = 2_000;

const leases = new Map<string, Lease>();
/** Per payer: the lease statement in flight, so requests wait for one instead of each taking one. */
const busy = new Map<string, Promise<unknown>>();

function payerKey(userId: number, tokenId: number): string {
  return `${userId}:${tokenId}`;
}

function exclusive<T>(key: string, run: () => Promise<T>): Promise<T> {
  const before = busy.get(key);
  const pending: Promise<T> = (before ? before.catch(() => undefined).then(run) : run()).finally(() => {
    if (busy.get(key) === pending) busy.delete(key);
  });
  busy.set(key, pending);
  return pending;
}

function holdFrom(lease: Lease | undefined, amount: number): ReserveResult | undefined {
  if (!lease || lease.returning || lease.gone || lease.funded - lease.held < amount) return undefined;
  lease.held += amount;
  lease.lastUsed = Date.now();
  return { ok: true, reservation: { amount, lease } };
}

/**
 * Takes `amount` for one request: in memory, at once, while the payer's lease has it (the
 * steady state: no promise at all); otherwise after extending or replacing the lease.
 */
export function reserveQuota(payer: Payer, amount: number): ReserveResult | Promise<ReserveResult> {
  if (!started) ensureStarted();
  return holdFrom(leases.get(payerKey(payer.userId, payer.tokenId)), amount) ?? reserveAfterLeasing(payer, amount);
}

async function reserveAfterLeasing(payer: Payer, amount: number): Promise<ReserveResult> {
  const key = payerKey(payer.userId, payer.tokenId);
  let freedOthers = false;
  for (;;) {
    const lease = leases.get(key);
    const held = holdFrom(lease, amount);
    if (held) return held;
    const pending = busy.get(key);
    if (pending) {
      await pending.catch(() => undefined);
      continue;
    }
    if (lease && (lease.returning || lease.gone)) {
      await exclusive(key, () => giveBack(lease));
      continue;
    }
    const short = await exclusive(key, () => extend(payer, lease, amount));
    if (!short) continue;
    // Other tokens' idle slices on this node are the same user's money: return them and retry once.
    if (short === "user" && !freedOthers && (await returnIdleLeasesOf(payer.userId, key))) {
      freedOthers = true;
      continue;
    }
    return { ok: false, reason: short };
  }
}

async function extend(payer: Payer, lease: Lease | undefined, amount: number): Promise<"user" | "token" | undefined> {
  const available = lease ? lease.funded - lease.held : 0;
  const min = amount - available;
  const want = Math.max(min, amount * SLICE_REQUESTS, lease?.held ?? 0);
  // The journal's row exists before anything is journaled, so a crash's journal can be claimed.
  await journalRegistered();
  const taken = await takeLease(NODE_ID, { userId: payer.userId, tokenId: payer.tokenId, limited: !payer.tokenUnlimited }, want, min);
  if (!taken.ok) return taken.short;
  const key = payerKey(payer.userId, payer.tokenId);
  const current = leases.get(key);
  if (current && current.id === taken.leaseId) current.funded += taken.granted;
  else {
    leases.set(key, {
      id: taken.leaseId, userId: payer.userId, tokenId: payer.tokenId, limited: !payer.tokenUnlimited, keyHash: payer.tokenKeyHash,
      funded: taken.granted, held: 0, lastUsed: Date.now(), gone: false, onReturned: [],
    });
  }
  return undefined;
}

/**
 * Replaces the hold with the real charge and returns it (undefined: nothing charged). The
 * charge is journaled before this returns, so the caller may deliver the reply at once; the
 * database write follows in the next batch. A charge above the hold takes what the lease (and,
 * through a new slice, the balance) still has, never more; the shortfall is noted in the log.
 */
export function settleQuota(reservation: Reservation, quota: number, channelId: number, log: ConsumeLog | undefined): number | Promise<number> {
  const lease = reservation.lease;
  if (quota <= spendable(reservation) || lease.gone) return bookCharge(reservation, quota, channelId, log);
  return extendForCharge(reservation, quota).then(() => bookCharge(reservation, quota, channelId, log));
}

/** What the lease can pay for this request: its free part plus the request's own hold, which stays counted until the charge is booked (so the lease cannot be returned meanwhile). */
function spendable(reservation: Reservation): number {
  return reservation.lease.funded - (reservation.lease.held - reservation.amount);
}

/** An over-estimate: a further slice of the balance, as far as there is one. */
async function extendForCharge(reservation: Reservation, quota: number): Promise<void> {
  const lease = reservation.lease;
  // Not serialised with reserve's extensions: both only add to the same row and to `funded`.
  try {
    const taken = await takeLease(NODE_ID, { userId: lease.userId, tokenId: lease.tokenId, limited: lease.limited }, quota - spendable(reservation), 0);
    if (taken.ok && taken.leaseId === lease.id) lease.funded += taken.granted;
  } catch (error) {
    console.error("[billing] could not extend a lease for an over-estimate", error);
  }
}

function bookCharge(reservation: Reservation, quota: number, channelId: number, log: ConsumeLog | undefined): number {
  const lease = reservation.lease;
  const charge = Math.max(0, Math.min(quota, spendable(reservation)));
  const entry = log && charge < quota ? { ...log, other: { ...log.other, shortfall: quota - charge } } : log;
  const settlement: Omit<Settlement, "seq"> = {
    leaseId: lease.id, userId: lease.userId, tokenId: lease.tokenId, limited: lease.limited, charge, channelId, at: Math.floor(Date.now() / 1000), log: entry,
  };
  // Journaled first: a settlement the journal refuses (settlement-schema) leaves the hold as it
  // was, for the caller's refund.
  journalCharge(settlement, lease.keyHash);
  lease.funded -= charge;
  lease.held -= reservation.amount;
  lease.lastUsed = Date.now();
  return charge;
}

/** Gives a hold back to its lease (failed call, nothing delivered). */
export function refundQuota(reservation: Reservation): void {
  const lease = reservation.lease;
  lease.held -= reservation.amount;
}

function markGone(leaseId: number): void {
  for (const [key, lease] of leases) {
    if (lease.id !== leaseId) continue;
    lease.gone = true;
    leases.delete(key);
  }
}
whenLeaseMissing(markGone);

// ---------------------------------------------------------------------------------------------
// Returning leases.

function scheduleReturn(lease: Lease): void {
  if (lease.held > 0 || lease.returning) return;
  lease.returning = true;
  queueLeaseWork(() => runReturn(lease));
}

async function runReturn(lease: Lease): Promise<void> {
  try {
    await returnLease(lease.id);
  } catch (error) {
    console.error("[billing] returning a lease failed (crash recovery will):", (error as Error).message);
  }
  lease.gone = true;
  const key = payerKey(lease.userId, lease.tokenId);
  if (leases.get(key) === lease) leases.delete(key);
  for (const wake of lease.onReturned.splice(0)) wake();
}

/** Queues the return of a lease with no holds and waits for it. */
function giveBack(lease: Lease): Promise<void> {
  return new Promise<void>((resolve) => {
    if (lease.gone && !lease.returning) {
      // Already gone from the database (an orphan return): just forget it.
      const key = payerKey(lease.userId, lease.tokenId);
      if (leases.get(key) === lease) leases.delete(key);
      resolve();
      return;
    }
    lease.onReturned.push(resolve);
    scheduleReturn(lease);
  });
}

async function returnIdleLeasesOf(userId: number, exceptKey: string): Promise<boolean> {
  const idle = [...leases.entries()].filter(([key, lease]) => key !== exceptKey && lease.userId === userId && lease.held === 0 && !lease.gone);
  await Promise.all(idle.map(([key, lease]) => exclusive(key, () => giveBack(lease))));
  return idle.length > 0;
}

/**
 * Gives back what a payer's leases hold beyond their open holds: the whole lease when nothing
 * is held, else the unheld part at once (in-flight requests keep theirs and are not waited for;
 * the next request cuts a new slice from the balance as it now is).
 */
function drainWhere(match: (lease: Lease) => boolean): void {
  for (const lease of leases.values()) {
    if (!match(lease) || lease.returning || lease.gone) continue;
    if (lease.held === 0) {
      scheduleReturn(lease);
      continue;
    }
    const excess = lease.funded - lease.held;
    if (excess <= 0) continue;
    lease.funded -= excess;
    queueLeaseWork(() =>
      trimLease(lease.id, excess).catch((error: unknown) => console.error("[billing] trimming a lease failed (it goes back whole when idle):", (error as Error).message)),
    );
  }
}

let started = false;
let sweeper: NodeJS.Timeout | undefined;

function ensureStarted(): void {
  if (started) return;
  started = true;
  // A user or token edited anywhere (balance set, disabled, deleted): this node's slices of it
  // go back, so the new balance is what the next slice is cut from.
  void subscribe(USER_CHANGED_CHANNEL, (userId) => drainWhere((lease) => String(lease.userId) === userId)).catch(() => undefined);
  void subscribe(TOKEN_CHANGED_CHANNEL, (hash) => drainWhere((lease) => lease.keyHash === hash)).catch(() => undefined);
  sweeper = setInterval(() => {
    const cutoff = Date.now() - IDLE_RETURN_MS;
    drainWhere((lease) => lease.held === 0 && lease.lastUsed < cutoff);
  }, 1_000);
  sweeper.unref();
}

/** Clean stop: write what is journaled, return every lease, and leave no journal behind. */
export async function closeBilling(): Promise<void> {
  if (sweeper) clearInterval(sweeper);
  drainWhere(() => true);
  await billingWritten(30_000);
  // Holds still open at this point belong to requests the shutdown cut off: nothing was delivered.
  for (const lease of [...leases.values()]) {
    lease.held = 0;
    scheduleReturn(lease);
  }
  await billingWritten(30_000);
  closeJournal();
}
