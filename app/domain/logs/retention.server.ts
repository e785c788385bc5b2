import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { parsePartitionBound, planRetention, type LogPartition } from "./retention";

/**
 * Log retention and "clear logs before" (decision 029): monthly partitions entirely older than
 * the cutoff are dropped (milliseconds whatever their size, no dead rows left to vacuum); the
 * edge month's and the default partition's older rows are deleted in bounded batches with a
 * pause between them, so no statement holds locks or the disk for long. The rollup tables
 * (quota_data*) are not touched: the dashboard keeps its history.
 */
export const RETENTION_BATCH_ROWS = 5_000;
const PAUSE_BETWEEN_BATCHES_MS = 20;
// Dropping a partition locks the parent `logs` for an instant; queued behind a long reader it
// would stall every insert, so it waits at most this long and tries again later.
const DROP_LOCK_TIMEOUT = "500ms";
const DROP_ATTEMPTS = 5;

/** What went, and how long the drops and the batched deletes took (ms; the benchmark reads them from the job's message). */
export type PruneResult = { dropped: string[]; droppedRows: number; deletedRows: number; dropMs: number[]; deleteMs: number };

async function listLogPartitions(): Promise<LogPartition[]> {
  const db = await getDb();
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'logs'::regclass
  `.execute(db);
  return rows.flatMap((row) => parsePartitionBound(row.name, row.bound) ?? []);
}

async function dropPartition(name: string): Promise<void> {
  if (!/^logs_[a-z0-9_]+$/.test(name)) throw new Error(`not a log partition: ${name}`);
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction().execute(async (trx) => {
        await sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`).execute(trx);
        await sql.raw(`drop table if exists "${name}"`).execute(trx);
      });
      return;
    } catch (error) {
      const lockTimeout = (error as { code?: string }).code === "55P03";
      if (!lockTimeout || attempt >= DROP_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** Deletes rows older than `cutoff` (unix seconds) in batches; the caller dropped whole partitions first. */
async function deleteOlderRows(cutoff: number): Promise<number> {
  const db = await getDb();
  let deleted = 0;
  for (;;) {
    const result = await sql`
      delete from logs where (created_at, id) in (
        select created_at, id from logs where created_at < ${cutoff} order by created_at, id limit ${RETENTION_BATCH_ROWS}
      )
    `.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    deleted += n;
    if (n < RETENTION_BATCH_ROWS) return deleted;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_BATCHES_MS));
  }
}

/**
 * Removes every log older than `cutoff` (unix seconds). `exactCount` counts a dropped
 * partition's rows first (the admin's "N 条日志已清理"); the scheduled job takes the planner's
 * estimate instead of reading a month of rows.
 */
export async function pruneLogsBefore(cutoff: number, { exactCount = false } = {}): Promise<PruneResult> {
  const db = await getDb();
  const plan = planRetention(await listLogPartitions(), cutoff);
  let droppedRows = 0;
  const dropMs: number[] = [];
  for (const name of plan.drop) {
    const counted = exactCount
      ? await sql<{ n: number }>`select count(*)::int8 as n from ${sql.table(name)}`.execute(db)
      : await sql<{ n: number }>`select greatest(reltuples, 0)::int8 as n from pg_class where relname = ${name}`.execute(db);
    droppedRows += Number(counted.rows[0]?.n ?? 0);
    const started = performance.now();
    await dropPartition(name);
    dropMs.push(Math.round(performance.now() - started));
  }
  const started = performance.now();
  const deletedRows = plan.trim.length ? await deleteOlderRows(cutoff) : 0;
  return { dropped: plan.drop, droppedRows, deletedRows, dropMs, deleteMs: Math.round(performance.now() - started) };
}
