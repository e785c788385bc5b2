import { subscribe } from "~/utils/redis.server";
import { TOKEN_CHANGED_CHANNEL } from "~/domain/tokens/tokens.server";
import { USER_CHANGED_CHANNEL } from "~/domain/users/manage.server";
import { NODE_ID } from "./node-liveness.server";
import { bounded, TIMED_OUT } from "./bounded-wait";
import { takeLease, type ConsumeLog, type Settlement } from "./lease-store.server";
import { billingWritten, closeJournal, journalCharge, journalRegistered } from "./settlement-writer.server";
import {
  credit,
  drainWhere,
  exclusive,
  giveBack,
  leases,
  payerKey,
  pendingLeaseWork,
  releaseIfOrphaned,
  returnIdleLeasesOf,
  scheduleReturn,
  WAIT_MS,
  type Lease,
} from "./lease-book.server";

export type { ConsumeLog } from "./lease-store.server";
export { billingWritten, chargesJournaled } from "./settlement-writer.server";

/**
 * Money on the relay path, with no database round trip in it (docs/decisions/006, docs/architecture.md):
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
 *
 * Every wait here is bounded by BILLING_WAIT_MS: a request that cannot get its slice in time
 * (database slow or down, a slice stuck on its way back) is refused with reason "busy", never
 * left hanging; the statement it waited for still lands on a lease the ledger tracks.
 */

export type Payer = { userId: number; tokenId: number; tokenUnlimited: boolean; tokenKeyHash: string };
export type Reservation = { amount: number; lease: Lease };
export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; reason: "user" | "token" | "busy" };

/** A new slice covers this many requests like the one asking (and at least the holds open). */
const SLICE_REQUESTS = 16;
const IDLE_RETURN_MS = 2_000;
const BUSY: ReserveResult = { ok: false, reason: "busy" };

function holdFrom(lease: Lease | undefined, amount: number): ReserveResult | undefined {
  if (!lease || lease.returning || lease.gone || lease.funded - lease.held < amount) return undefined;
  lease.held += amount;
  lease.lastUsed = Date.now();
  return { ok: true, reservation: { amount, lease } };
}

/**
 * Takes `amount` for one request: in memory, at once, while the payer's lease has it (the
 * steady state: no promise at all); otherwise after extending or replacing the lease.
 *
 * `least` (the plain estimate, when `amount` carries decision 009's floor) is tried when
 * `amount` is refused for want of balance and the payer has no call in flight here: a lone call
 * at the end of a balance is not refused for the floor, while a burst still is.
 */
export function reserveQuota(payer: Payer, amount: number, least = amount): ReserveResult | Promise<ReserveResult> {
  if (!started) ensureStarted();
  const held = holdFrom(leases.get(payerKey(payer.userId, payer.tokenId)), amount);
  if (held) return held;
  const deadline = Date.now() + WAIT_MS;
  const reserving = reserveAfterLeasing(payer, amount, deadline);
  if (least >= amount) return reserving;
  return reserving.then((result) => {
    if (result.ok || result.reason === "busy" || (leases.get(payerKey(payer.userId, payer.tokenId))?.held ?? 0) > 0)
      return result;
    return reserveAfterLeasing(payer, least, deadline);
  });
}

async function reserveAfterLeasing(payer: Payer, amount: number, deadline: number): Promise<ReserveResult> {
  const key = payerKey(payer.userId, payer.tokenId);
  let freedOthers = false;
  for (;;) {
    const lease = leases.get(key);
    const held = holdFrom(lease, amount);
    if (held) return held;
    const left = deadline - Date.now();
    if (left <= 0) return BUSY;
    const pending = pendingLeaseWork(key);
    if (pending) {
      await bounded(
        pending.catch(() => undefined),
        left,
      );
      continue;
    }
    if (lease && (lease.returning || lease.gone)) {
      await bounded(
        exclusive(key, () => giveBack(lease)),
        left,
      );
      continue;
    }
    const short = await bounded(
      exclusive(key, () => extend(payer, lease, amount)),
      left,
    );
    if (short === TIMED_OUT) return BUSY;
    if (!short) continue;
    // Other tokens' idle slices on this node are the same user's money: return them and retry once.
    if (short === "user" && !freedOthers && (await returnIdleLeasesOf(payer.userId, key, deadline))) {
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
  const taken = await takeLease(
    NODE_ID,
    { userId: payer.userId, tokenId: payer.tokenId, limited: !payer.tokenUnlimited },
    want,
    min,
  );
  if (!taken.ok) return taken.short;
  credit(payer.tokenKeyHash, { userId: payer.userId, tokenId: payer.tokenId, limited: !payer.tokenUnlimited }, taken);
  return undefined;
}

/**
 * Replaces the hold with the real charge and returns it (undefined: nothing charged). The
 * charge is journaled before this returns, so the caller may deliver the reply at once; the
 * database write follows in the next batch. A charge above the hold takes what the lease (and,
 * through a new slice, the balance) still has, never more; the shortfall is noted in the log.
 */
export function settleQuota(
  reservation: Reservation,
  quota: number,
  channelId: number,
  log: ConsumeLog | undefined,
): number | Promise<number> {
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
  // Bounded: past it the charge is booked with what the lease has (the rest is a shortfall).
  const payer = { userId: lease.userId, tokenId: lease.tokenId, limited: lease.limited };
  const taking = takeLease(NODE_ID, payer, quota - spendable(reservation), 0).then(
    (taken) => {
      if (!taken.ok) return;
      if (taken.leaseId === lease.id && !lease.gone) lease.funded += taken.granted;
      else credit(lease.keyHash, payer, taken);
    },
    (error: unknown) => console.error("[billing] could not extend a lease for an over-estimate", error),
  );
  await bounded(taking, WAIT_MS);
}

function bookCharge(reservation: Reservation, quota: number, channelId: number, log: ConsumeLog | undefined): number {
  const lease = reservation.lease;
  const charge = Math.max(0, Math.min(quota, spendable(reservation)));
  // The part the payer could not cover is not charged (balances never go below zero) but
  // counted: on the user and the channel, and noted in the usage log (decision 009).
  const shortfall = Math.max(0, quota - charge);
  const entry = log && shortfall > 0 ? { ...log, other: { ...log.other, shortfall } } : log;
  const settlement: Omit<Settlement, "seq"> = {
    leaseId: lease.id,
    userId: lease.userId,
    tokenId: lease.tokenId,
    limited: lease.limited,
    charge,
    ...(shortfall > 0 ? { shortfall } : undefined),
    channelId,
    at: Math.floor(Date.now() / 1000),
    log: entry,
  };
  // Journaled first: a settlement the journal refuses (settlement-schema) leaves the hold as it
  // was, for the caller's refund.
  journalCharge(settlement, lease.keyHash);
  lease.funded -= charge;
  lease.held -= reservation.amount;
  lease.lastUsed = Date.now();
  if (lease.held === 0) releaseIfOrphaned(lease);
  return charge;
}

/** Gives a hold back to its lease (failed call, nothing delivered). */
export function refundQuota(reservation: Reservation): void {
  const lease = reservation.lease;
  lease.held -= reservation.amount;
  if (lease.held === 0) releaseIfOrphaned(lease);
}

let started = false;
let sweeper: NodeJS.Timeout | undefined;

function ensureStarted(): void {
  if (started) return;
  started = true;
  // A user or token edited anywhere (balance set, disabled, deleted): this node's slices of it
  // go back, so the new balance is what the next slice is cut from.
  void subscribe(USER_CHANGED_CHANNEL, (userId) => drainWhere((lease) => String(lease.userId) === userId)).catch(
    () => undefined,
  );
  void subscribe(TOKEN_CHANGED_CHANNEL, (hash) => drainWhere((lease) => lease.keyHash === hash)).catch(() => undefined);
  sweeper = setInterval(() => returnIdleLeases(), 1_000);
  sweeper.unref();
}

/** The idle sweep: leases with no holds, unused for `idleMs`, go back (exported so tests can race it). */
export function returnIdleLeases(idleMs = IDLE_RETURN_MS): void {
  const cutoff = Date.now() - idleMs;
  drainWhere((lease) => lease.held === 0 && lease.lastUsed <= cutoff);
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
