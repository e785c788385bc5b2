/** What a bounded wait resolves to when its time ran out first (the work itself goes on). */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Waits for `work` at most `ms`. The work is not cancelled: whatever it does when it ends late
 * must still leave the ledger right (it only ever adds to leases the ledger tracks), so a timeout
 * costs the waiter its answer, never money.
 */
export function bounded<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, ms));
    timer.unref();
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}
