import { env } from "~/utils/env.server";
import { returnLease, trimLease, type TakeResult } from "./lease-store.server";
import { queueLeaseWork, whenLeaseMissing } from "./settlement-writer.server";
import { bounded, type TIMED_OUT } from "./bounded-wait";

/**
 * The ledger's book of this node's quota leases (quota.server reserves and settles against
 * them): which lease each payer has, the per-payer chain of lease statements, and leases going
 * back — idle, drained after a payer's change, or replaced. Every wait ends after
 * BILLING_WAIT_MS (decision 009).
 */

export const WAIT_MS = env.BILLING_WAIT_MS;

export type Lease = {
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

export const leases = new Map<string, Lease>();
/** Per payer: the lease statement in flight, so requests wait for one instead of each taking one. */
const busy = new Map<string, Promise<unknown>>();
/** Ids of leases returned lately: a late grant naming one was returned with it (ids are never reused). */
const goneIds = new Set<number>();
const GONE_IDS_KEPT = 10_000;

/** The payer's lease work in flight, if any (wait for it rather than start another). */
export function pendingLeaseWork(key: string): Promise<unknown> | undefined {
  return busy.get(key);
}

export function payerKey(userId: number, tokenId: number): string {
  return `${userId}:${tokenId}`;
}

/** Runs `run` after the payer's previous lease work; each run is bounded, so the chain always moves on. */
export function exclusive<T>(key: string, run: () => Promise<T>): Promise<T | typeof TIMED_OUT> {
  const before = busy.get(key);
  const step = () => bounded(run(), WAIT_MS);
  const pending: Promise<T | typeof TIMED_OUT> = (before ? before.catch(() => undefined).then(step) : step()).finally(
    () => {
      if (busy.get(key) === pending) busy.delete(key);
    },
  );
  busy.set(key, pending);
  return pending;
}

/**
 * Books a grant on the lease it went to. A grant can land late (its waiter timed out) or after
 * its row was returned, so it is matched by id: added to the payer's lease when that is the row,
 * dropped when the row is known returned (the grant went back with it), else tracked as the
 * payer's lease from now on — an untracked row would hold the payer's money until a restart.
 */
export function credit(
  keyHash: string,
  payer: { userId: number; tokenId: number; limited: boolean },
  taken: Extract<TakeResult, { ok: true }>,
): void {
  if (goneIds.has(taken.leaseId)) return;
  const key = payerKey(payer.userId, payer.tokenId);
  const current = leases.get(key);
  if (current && current.id === taken.leaseId) {
    current.funded += taken.granted;
    return;
  }
  leases.set(key, {
    id: taken.leaseId,
    ...payer,
    keyHash,
    funded: taken.granted,
    held: 0,
    lastUsed: Date.now(),
    gone: false,
    onReturned: [],
  });
  // A lease it replaces (its row was returned under it) goes back once its holds are settled.
  if (current && !current.gone) releaseIfOrphaned(current);
}

/** A lease no longer the payer's current one (replaced) is returned when its last hold ends, not left holding money. */
export function releaseIfOrphaned(lease: Lease): void {
  if (!lease.gone && !lease.returning && leases.get(payerKey(lease.userId, lease.tokenId)) !== lease)
    scheduleReturn(lease);
}

export function forgetGone(lease: Lease): void {
  lease.gone = true;
  goneIds.add(lease.id);
  if (goneIds.size > GONE_IDS_KEPT) goneIds.delete(goneIds.values().next().value!);
  const key = payerKey(lease.userId, lease.tokenId);
  if (leases.get(key) === lease) leases.delete(key);
  for (const wake of lease.onReturned.splice(0)) wake();
}

function markGone(leaseId: number): void {
  for (const lease of [...leases.values()]) if (lease.id === leaseId) forgetGone(lease);
}
whenLeaseMissing(markGone);

// ---------------------------------------------------------------------------------------------
// Returning leases.

export function scheduleReturn(lease: Lease): void {
  if (lease.held > 0 || lease.returning) return;
  lease.returning = true;
  queueLeaseWork(() => runReturn(lease));
}

async function runReturn(lease: Lease): Promise<void> {
  try {
    await returnLease(lease.id);
  } catch (error) {
    // The row is still there: the lease stays usable, the idle sweep tries again, and whoever
    // waited goes on (and finds it usable) instead of waiting for a return that did not happen.
    console.error("[billing] returning a lease failed (the idle sweep tries again):", (error as Error).message);
    lease.returning = false;
    for (const wake of lease.onReturned.splice(0)) wake();
    return;
  }
  forgetGone(lease);
}

/**
 * Queues the return of a lease with no holds and waits for it (bounded by the caller's
 * exclusive()). Resolves at once when there is nothing to wait for: the lease is gone already
 * (the idle sweep or another caller returned it first — waiting then hung: nobody was
 * left to wake the waiter), or it has holds again and is not idle any more.
 */
export function giveBack(lease: Lease): Promise<void> {
  if (lease.gone) {
    forgetGone(lease);
    return Promise.resolve();
  }
  if (!lease.returning && lease.held > 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    lease.onReturned.push(resolve);
    scheduleReturn(lease);
  });
}

export async function returnIdleLeasesOf(userId: number, exceptKey: string, deadline: number): Promise<boolean> {
  const idle = [...leases.entries()].filter(
    ([key, lease]) => key !== exceptKey && lease.userId === userId && lease.held === 0 && !lease.gone,
  );
  if (idle.length === 0) return false;
  await bounded(Promise.all(idle.map(([key, lease]) => exclusive(key, () => giveBack(lease)))), deadline - Date.now());
  return true;
}

/**
 * Gives back what a payer's leases hold beyond their open holds: the whole lease when nothing
 * is held, else the unheld part at once (in-flight requests keep theirs and are not waited for;
 * the next request cuts a new slice from the balance as it now is).
 */
export function drainWhere(match: (lease: Lease) => boolean): void {
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
      trimLease(lease.id, excess).catch((error: unknown) =>
        console.error("[billing] trimming a lease failed (it goes back whole when idle):", (error as Error).message),
      ),
    );
  }
}
