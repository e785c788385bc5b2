import { publish } from "~/utils/redis.server";
import { TOKEN_CHANGED_CHANNEL } from "~/domain/tokens/tokens.server";
import { env } from "~/utils/env.server";
import { NODE_ID } from "./node-liveness.server";
import { registerJournal, writeSettlements, type Settlement } from "./lease-store.server";
import { SettleJournal } from "./settle-journal.server";
import { isDataRefusal } from "~/utils/db-errors";
import { quarantine } from "./journal-quarantine.server";

/**
 * Charges on their way to the database: journaled locally when a reply is settled, then written
 * behind the replies in batches, in order with the lease work (returns, trims) the ledger
 * queues, so a lease is never returned ahead of charges taken from it.
 *
 * Charges collect for BILLING_FLUSH_DELAY_MS (the window) before a batch is written, and the
 * next window opens when that batch is written: one database write per window whatever the
 * traffic (up to MAX_BATCH charges, when a batch goes at once), instead of one per request at
 * low traffic and one per round trip under load; and a database write never sits between a
 * reply and its client. Lease work (someone may be waiting for a return) and a page or /api read
 * (billingWritten: nobody sees a balance without the calls they already got answers to) skip the
 * window.
 *
 * Journal lines are written once per turn of the event loop, for every charge settled in it,
 * and replies wait for that write (chargesJournaled): a reply is never delivered before its
 * charge is on disk, and fifty replies ready in one turn cost one write system call, not fifty.
 */

type QueueItem =
  | { kind: "settle"; settlement: Settlement; line: string; keyHash: string; queuedAt: number }
  | { kind: "lease"; run: () => Promise<void> };

const MAX_BATCH = 512;

let settleJournal: SettleJournal | undefined;
let journalReady: Promise<void> | undefined;
let queue: QueueItem[] = [];
let writing: Promise<void> | undefined;
let flushTimer: NodeJS.Timeout | undefined;
let flushSoon: NodeJS.Immediate | undefined;
/** Someone waits for the queue to be written (lease work, a page read): no window. */
let urgent = false;
const idleWaiters: (() => void)[] = [];
let linesWritten: Promise<void> | undefined;
let failures = 0;
/** Consecutive refusals of the data itself (not of the connection) of the settlement at the head. */
let refusals = 0;
/** How many settlements are still to be written one at a time after a refused batch. */
let isolating = 0;
let onLeaseMissing: (leaseId: number) => void = () => undefined;
/** Since when the database has been refusing the writer (unreachable, restarting, refusing connections). */
let waitingSince: number | undefined;
let lastWaitError: string | undefined;
let lastWaitComplaint = 0;
/** The longest any settlement waited between its journal line and its database write, since start. */
let longestWaitMs = 0;
/** How often the server log repeats that charges are waiting for the database. */
const WAIT_COMPLAINT_MS = 30_000;

function journal(): SettleJournal {
  settleJournal ??= new SettleJournal(NODE_ID);
  return settleJournal;
}

/** The ledger learns here of leases a write found gone from the database (returned as orphans). */
export function whenLeaseMissing(handler: (leaseId: number) => void): void {
  onLeaseMissing = handler;
}

/** The node's journal row exists before anything is journaled, so a crash's journal can be claimed. */
export function journalRegistered(): Promise<void> {
  journalReady ??= registerJournal(NODE_ID).catch((error: unknown) => {
    journalReady = undefined;
    throw error;
  });
  return journalReady;
}

/** Appends a charge to the journal and queues its database write; deliver its reply after chargesJournaled(). */
export function journalCharge(entry: Omit<Settlement, "seq">, keyHash: string): void {
  const { settlement, line } = journal().append(entry);
  enqueue({ kind: "settle", settlement, line, keyHash, queuedAt: Date.now() });
}

/**
 * Gets every charge journaled so far onto disk before replies go out: at once when `alone` (no
 * other request in flight could settle in this turn, so there is nothing to wait for), else at
 * the end of this turn with the others settled in it. Undefined when written already.
 */
export function chargesJournaled(alone: boolean): Promise<void> | undefined {
  if (!journal().hasPending()) return undefined;
  if (alone && !linesWritten) {
    journal().writePending();
    return undefined;
  }
  linesWritten ??= new Promise((resolve) =>
    setImmediate(() => {
      linesWritten = undefined;
      journal().writePending();
      resolve();
    }),
  );
  return linesWritten;
}

/**
 * Queues lease work to run after every charge journaled before it is written. It is rare and
 * someone may be waiting on it (a request whose payer's lease is going back), so the writer
 * starts without the window.
 */
export function queueLeaseWork(run: () => Promise<void>): void {
  urgent = true;
  enqueue({ kind: "lease", run });
}

function enqueue(item: QueueItem): void {
  queue.push(item);
  scheduleWrite();
}

function scheduleWrite(): void {
  if (writing || flushSoon || queue.length === 0) return;
  if (urgent || queue.length >= MAX_BATCH || env.BILLING_FLUSH_DELAY_MS === 0) {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    // After this turn's replies (and its journal lines) are written.
    flushSoon = setImmediate(startWriting);
    return;
  }
  flushTimer ??= setTimeout(startWriting, env.BILLING_FLUSH_DELAY_MS);
}

function startWriting(): void {
  if (flushTimer) clearTimeout(flushTimer);
  if (flushSoon) clearImmediate(flushSoon);
  flushTimer = undefined;
  flushSoon = undefined;
  writing ??= drain().finally(() => {
    writing = undefined;
    if (queue.length > 0)
      scheduleWrite(); // what arrived while the last batch was written waits for the next window
    else {
      urgent = false;
      for (const wake of idleWaiters.splice(0)) wake();
    }
  });
}

/** Writes what is queued now (later arrivals wait for the next window, unless someone waits). */
async function drain(): Promise<void> {
  // Whatever is queued must be on disk before its charges go to the database.
  journal().writePending();
  let budget = queue.length;
  while (queue.length > 0 && (budget > 0 || urgent)) {
    const first = queue[0]!;
    if (first.kind === "lease") {
      queue.shift();
      budget -= 1;
      await first
        .run()
        .catch((error: unknown) =>
          console.error(
            "[billing] lease work failed (crash recovery or the idle sweep puts it right):",
            (error as Error).message,
          ),
        );
      continue;
    }
    let end = 0;
    const limit = isolating > 0 ? 1 : MAX_BATCH;
    while (end < queue.length && end < limit && queue[end]!.kind === "settle") end += 1;
    const batch = queue.slice(0, end) as Extract<QueueItem, { kind: "settle" }>[];
    try {
      await journalRegistered();
      const result = await writeSettlements(
        NODE_ID,
        batch.map((item) => item.settlement),
        batch.map((item) => item.line),
      );
      queue = queue.slice(end);
      budget -= end;
      journal().applied(batch[batch.length - 1]!.settlement.seq);
      failures = 0;
      refusals = 0;
      if (isolating > 0) isolating -= 1;
      longestWaitMs = Math.max(longestWaitMs, Date.now() - batch[0]!.queuedAt);
      if (waitingSince !== undefined) databaseBack();
      for (const item of batch) {
        if (result.missingLeases.has(item.settlement.leaseId)) onLeaseMissing(item.settlement.leaseId);
      }
      const exhausted = new Set(
        batch.filter((item) => result.exhaustedTokens.has(item.settlement.tokenId)).map((item) => item.keyHash),
      );
      for (const hash of exhausted) if (hash) void publish(TOKEN_CHANGED_CHANNEL, hash).catch(() => undefined);
    } catch (error) {
      failures += 1;
      refusals = isDataRefusal(error) ? refusals + 1 : 0;
      if (refusals === 0) waitForDatabase(error as Error);
      else
        console.error(
          `[billing] the database refused ${batch.length} settlements (attempt ${failures}):`,
          (error as Error).message,
        );
      if (refusals > 0) {
        // The database refused the data itself: write this batch one settlement at a time, and a
        // settlement it keeps refusing is set aside whole — charge and usage log together — in
        // the quarantine, so nothing behind it waits (a charge is never written without its log).
        if (batch.length > 1) isolating = batch.length;
        else if (refusals >= 3) {
          setAside(batch[0]!, error as Error);
          budget -= 1;
          continue;
        }
      }
      // The charges are safe in the journal; the write is idempotent, so a retry is exact.
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** Math.min(failures, 6))));
    }
  }
}

/**
 * The database cannot be reached or refuses connections (a restart, a failover, a blink): the
 * charges are safe in the journal, so the writer waits it out with a bounded backoff for as long
 * as it takes, and says so in the server log (at once, then every WAIT_COMPLAINT_MS) and on
 * /healthz. Nothing is quarantined for it: only data the database refuses is set aside.
 */
function waitForDatabase(error: Error): void {
  const now = Date.now();
  waitingSince ??= now;
  lastWaitError = error.message;
  if (now - lastWaitComplaint < WAIT_COMPLAINT_MS) return;
  lastWaitComplaint = now;
  const oldest = oldestQueuedAt();
  console.error(
    `[billing] the database is unavailable (${error.message}); ${queuedSettlements()} charges wait in the journal` +
      `${oldest === undefined ? "" : `, the oldest for ${Math.round((now - oldest) / 1000)} s`}; writing them as soon as it answers`,
  );
}

function databaseBack(): void {
  console.log(
    `[billing] the database answers again after ${Math.round((Date.now() - waitingSince!) / 1000)} s; the waiting charges are being written`,
  );
  waitingSince = undefined;
  lastWaitError = undefined;
  lastWaitComplaint = 0;
}

function queuedSettlements(): number {
  let count = 0;
  for (const item of queue) if (item.kind === "settle") count += 1;
  return count;
}

function oldestQueuedAt(): number | undefined {
  for (const item of queue) if (item.kind === "settle") return item.queuedAt;
  return undefined;
}

export type SettlementBacklog = {
  /** Charges journaled and not yet in the database. */
  queued: number;
  /** How long the oldest of them has waited. */
  oldestMs: number;
  /** How long the writer has been waiting for the database, when it is. */
  waitingMs?: number;
  lastError?: string;
  /** The longest any settlement waited for its database write since this process started. */
  longestWaitMs: number;
};

/** What the writer holds and whether it waits for the database (for /healthz and the admission's backlog bound). */
export function settlementBacklog(): SettlementBacklog {
  const now = Date.now();
  const oldest = oldestQueuedAt();
  return {
    queued: queuedSettlements(),
    oldestMs: oldest === undefined ? 0 : now - oldest,
    ...(waitingSince === undefined ? {} : { waitingMs: now - waitingSince, lastError: lastWaitError }),
    longestWaitMs: Math.max(longestWaitMs, oldest === undefined ? 0 : now - oldest),
  };
}

function setAside(item: Extract<QueueItem, { kind: "settle" }>, error: Error): void {
  quarantine({
    nodeId: NODE_ID,
    source: "settlement writer",
    reason: `refused by the database ${refusals} times: ${error.message}`,
    line: item.line,
  });
  queue = queue.slice(1);
  journal().applied(item.settlement.seq);
  failures = 0;
  refusals = 0;
  if (isolating > 0) isolating -= 1;
}

/** Resolves once everything queued so far is written: at once when the writer is idle. */
export function billingWritten(maxWaitMs = 5_000): Promise<void> {
  if (queue.length === 0 && !writing) return Promise.resolve();
  urgent = true;
  if (!writing) startWriting();
  // Bounded: while the database is unreachable, pages still answer (with what it has).
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxWaitMs);
    timer.unref();
    idleWaiters.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** At a clean stop: only an empty queue means the journal is wholly written; else it is replayed at the next start. */
export function closeJournal(): void {
  settleJournal?.writePending();
  if (settleJournal && queue.length === 0) settleJournal.close();
  settleJournal = undefined;
}
