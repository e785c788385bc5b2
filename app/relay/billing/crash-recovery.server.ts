import { rmSync } from "node:fs";
import { sql, type Transaction } from "kysely";
import type { DB } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { appliedSeqOf, forgetJournal, writeSettlements } from "./lease-store.server";
import { LIVENESS_CONFIRM_MS, lockKeyOf, NODE_ID } from "./node-liveness.server";
import { journalsLeftBy, type LeftJournal } from "./settle-journal.server";
import { quarantine } from "./journal-quarantine.server";
import { isDataRefusal } from "~/utils/db-errors";
import type { Settlement } from "./lease-store.server";
import { retryOnDeadlock } from "./retry-on-deadlock";

/**
 * What a stopped process leaves behind, put right (at every start and by the periodic job):
 *  1. settlements in its journal on this host that never reached the database are written
 *     (exactly once: the journal's applied sequence gates them);
 *  2. its quota leases go back to their payers' free balance (its open holds died with it);
 *  3. reservations of the earlier per-request scheme (before leases) are refunded.
 * A process counts as stopped only when its liveness lock is free (node-liveness), so a live
 * process's leases and journal are never touched.
 */
export async function recoverStoppedNodes(): Promise<{ replayed: number; returned: number; refunded: number }> {
  const stopped = await stoppedAmong(await candidateNodes());
  const isStopped = async (nodeId: string) => stopped.has(nodeId);
  const replayed = await replayJournals(isStopped);
  const returned = await returnLeasesOfStoppedNodes(isStopped);
  const refunded = await refundOrphanedReservations(isStopped);
  return { replayed, returned, refunded };
}

type IsStopped = (nodeId: string) => Promise<boolean>;

/** For a replay on its own: the nodes with a journal on this host, confirmed stopped. */
async function journalNodesStopped(nodeId: string): Promise<boolean> {
  return (await stoppedAmong([nodeId])).has(nodeId);
}

/** Every other node that left something behind: a journal on this host, leases, old reservations. */
async function candidateNodes(): Promise<string[]> {
  const db = await getDb();
  const ids = new Set(journalsLeftBy((nodeId) => nodeId !== NODE_ID).map((j) => j.nodeId));
  for (const { node_id } of await db.selectFrom("quota_leases").select("node_id").distinct().execute())
    ids.add(node_id);
  for (const { node_id } of await db.selectFrom("quota_reservations").select("node_id").distinct().execute())
    ids.add(node_id);
  ids.delete(NODE_ID);
  return [...ids];
}

/**
 * The nodes whose liveness lock is free, and still free LIVENESS_CONFIRM_MS later: a live node
 * whose lock connection was just dropped has re-taken it by then (node-liveness).
 */
async function stoppedAmong(nodeIds: string[]): Promise<Set<string>> {
  const free = new Set<string>();
  for (const id of nodeIds) if (await lockIsFree(id)) free.add(id);
  if (free.size === 0) return free;
  await new Promise((resolve) => setTimeout(resolve, LIVENESS_CONFIRM_MS));
  for (const id of free) if (!(await lockIsFree(id))) free.delete(id);
  return free;
}

async function lockIsFree(nodeId: string): Promise<boolean> {
  const key = lockKeyOf(nodeId);
  if (key === undefined) return true;
  const db = await getDb();
  // Held for this transaction only: a stopped node stays stopped (ids are never reused).
  return db.transaction().execute(async (trx) => {
    const probe = await sql<{
      free: boolean;
    }>`select pg_try_advisory_xact_lock(${key.toString()}::bigint) as free`.execute(trx);
    return Boolean(probe.rows[0]?.free);
  });
}

/**
 * Writes what stopped processes journaled and never wrote. One bad line never blocks a start:
 * a line that fails the settlement schema, and a settlement the database refuses, go to the
 * quarantine (journal-quarantine) with their reason, and the rest is written in order.
 */
export async function replayJournals(isStopped: IsStopped = journalNodesStopped): Promise<number> {
  let replayed = 0;
  for (const journal of journalsLeftBy((nodeId) => nodeId !== NODE_ID)) {
    const applied = await appliedSeqOf(journal.nodeId);
    // No row: the journal belongs to another database sharing this data directory.
    if (applied === undefined || !(await isStopped(journal.nodeId))) continue;
    for (const bad of journal.rejected)
      quarantine({ nodeId: journal.nodeId, source: bad.file, reason: bad.reason, line: bad.line });
    const missing = journal.settlements.filter((s) => s.seq > applied);
    for (let i = 0; i < missing.length; i += 512) replayed += await replayBatch(journal, missing.slice(i, i + 512));
    for (const file of journal.files) rmSync(file, { force: true });
    await forgetJournal(journal.nodeId);
    if (missing.length)
      console.log(
        `[billing] wrote ${replayed} of ${missing.length} settlements journaled by stopped process ${journal.nodeId}`,
      );
  }
  return replayed;
}

/** A batch as one statement; if the database refuses its data, one settlement at a time, quarantining what it still refuses. */
async function replayBatch(journal: LeftJournal, batch: Settlement[]): Promise<number> {
  try {
    return (await writeSettlements(journal.nodeId, batch)).applied ? batch.length : 0;
  } catch (error) {
    if (!isDataRefusal(error)) throw error;
  }
  let written = 0;
  for (const settlement of batch) {
    try {
      if ((await writeSettlements(journal.nodeId, [settlement])).applied) written += 1;
    } catch (error) {
      if (!isDataRefusal(error)) throw error;
      quarantine({
        nodeId: journal.nodeId,
        source: journal.files.join(", "),
        reason: `refused by the database: ${(error as Error).message}`,
        line: JSON.stringify(settlement),
      });
    }
  }
  return written;
}

async function returnLeasesOfStoppedNodes(isStopped: IsStopped): Promise<number> {
  const db = await getDb();
  const nodes = await db
    .selectFrom("quota_leases")
    .select("node_id")
    .distinct()
    .where("node_id", "<>", NODE_ID)
    .execute();
  let returned = 0;
  for (const { node_id } of nodes) {
    if (!(await isStopped(node_id))) continue;
    returned += await retryOnDeadlock(() =>
      db.transaction().execute(async (trx) => {
        const rows = await trx.deleteFrom("quota_leases").where("node_id", "=", node_id).returningAll().execute();
        await releaseLeased(trx, rows);
        return rows.length;
      }),
    );
    // A journal of it left on another host and replayed later finds these leases gone and
    // charges the balances directly, which stays exact; so its journal row is kept for that.
  }
  return returned;
}

async function releaseLeased(
  trx: Transaction<DB>,
  rows: { user_id: number; token_id: number; token_limited: boolean; amount: number }[],
): Promise<void> {
  const perUser = new Map<number, number>();
  const perToken = new Map<number, number>();
  for (const row of rows) {
    const amount = Math.max(0, Number(row.amount));
    perUser.set(row.user_id, (perUser.get(row.user_id) ?? 0) + amount);
    if (row.token_limited && row.token_id) perToken.set(row.token_id, (perToken.get(row.token_id) ?? 0) + amount);
  }
  // Sorted ids, users before tokens: the lock order of every billing statement.
  for (const [id, amount] of [...perUser].sort((a, b) => a[0] - b[0]))
    await trx
      .updateTable("users")
      .set({ leased: sql`greatest(leased - ${amount}, 0)` })
      .where("id", "=", id)
      .execute();
  for (const [id, amount] of [...perToken].sort((a, b) => a[0] - b[0]))
    await trx
      .updateTable("tokens")
      .set({ leased: sql`greatest(leased - ${amount}, 0)` })
      .where("id", "=", id)
      .execute();
}

/** Reservations of the per-request scheme this version replaced: their quota goes back. */
async function refundOrphanedReservations(isStopped: IsStopped): Promise<number> {
  const db = await getDb();
  let refunded = 0;
  const nodes = await db.selectFrom("quota_reservations").select("node_id").distinct().execute();
  for (const { node_id } of nodes) {
    if (node_id !== NODE_ID && !(await isStopped(node_id))) continue;
    refunded += await db.transaction().execute(async (trx) => {
      const rows = await trx.deleteFrom("quota_reservations").where("node_id", "=", node_id).returningAll().execute();
      const perUser = new Map<number, number>();
      const perToken = new Map<number, number>();
      for (const row of rows) {
        perUser.set(row.user_id, (perUser.get(row.user_id) ?? 0) + Number(row.amount));
        if (row.token_id && !row.token_unlimited)
          perToken.set(row.token_id, (perToken.get(row.token_id) ?? 0) + Number(row.amount));
      }
      for (const [id, amount] of [...perUser].sort((a, b) => a[0] - b[0]))
        await trx
          .updateTable("users")
          .set({ quota: sql`quota + ${amount}` })
          .where("id", "=", id)
          .execute();
      for (const [id, amount] of [...perToken].sort((a, b) => a[0] - b[0]))
        await trx
          .updateTable("tokens")
          .set({ remain_quota: sql`remain_quota + ${amount}` })
          .where("id", "=", id)
          .execute();
      return rows.length;
    });
  }
  return refunded;
}
