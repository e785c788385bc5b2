import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { parsePartitionBound, planRetention, type LogPartition } from "./retention";

/**
 * Log retention and "clear logs before" (decision 029): monthly partitions entirely older than
 * the cutoff are detached and dropped (the lock on `logs` held for a catalogue change whatever
 * the month's size, and no dead rows left to vacuum); the
 * edge month's and the default partition's older rows are deleted in bounded batches with a
 * pause between them, so no statement holds locks or the disk for long. The rollup tables
 * (quota_data*) are not touched: the dashboard keeps its history.
 */
export const RETENTION_BATCH_ROWS = 5_000;
const PAUSE_BETWEEN_BATCHES_MS = 20;
// Detaching a partition locks the parent `logs` for an instant; queued behind a long reader it
// would stall every insert, so it waits at most this long and tries again a little later.
const DROP_LOCK_TIMEOUT = "500ms";
const DROP_ATTEMPTS = 5;

/**
 * What went, and how long it took (ms; the benchmark reads them from the job's message): each
 * month's whole removal, the part of it that held the lock on `logs`, and the batched deletes.
 */
export type PruneResult = { dropped: string[]; droppedRows: number; deletedRows: number; dropMs: number[]; detachMs: number[]; deleteMs: number };

async function listLogPartitions(): Promise<LogPartition[]> {
  const db = await getDb();
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'logs'::regclass
  `.execute(db);
  return rows.flatMap((row) => parsePartitionBound(row.name, row.bound) ?? []);
}

const PARTITION_NAME = /^logs_[a-z0-9_]+$/;
const RETIRED_PREFIX = "retired_";

/**
 * Takes a month out of `logs`, then drops it. Detaching is a catalogue change under a brief
 * exclusive lock on `logs` (bounded by lock_timeout, retried); dropping the detached table, which
 * removes gigabytes of files, then holds no lock any insert or reader of `logs` waits on. The
 * detached table is renamed in the same transaction, so one left by a crash between the two
 * steps is found and dropped by the next run.
 */
async function dropPartition(name: string): Promise<{ detachMs: number }> {
  if (!PARTITION_NAME.test(name)) throw new Error(`not a log partition: ${name}`);
  const db = await getDb();
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction().execute(async (trx) => {
        await sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`).execute(trx);
        await sql.raw(`alter table logs detach partition "${name}"`).execute(trx);
        await sql.raw(`alter table "${name}" rename to "${RETIRED_PREFIX}${name}"`).execute(trx);
      });
      break;
    } catch (error) {
      const lockTimeout = (error as { code?: string }).code === "55P03";
      if (!lockTimeout || attempt >= DROP_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
  const detachMs = Math.round(performance.now() - started);
  await sql.raw(`drop table if exists "${RETIRED_PREFIX}${name}"`).execute(db);
  return { detachMs };
}

/** Months detached by a run that died before dropping them. */
async function dropRetiredLeftovers(): Promise<void> {
  const db = await getDb();
  const { rows } = await sql<{ name: string }>`select relname as name from pg_class where relkind = 'r' and relname like ${`${RETIRED_PREFIX}logs\\_%`}`.execute(db);
  for (const { name } of rows) if (PARTITION_NAME.test(name.slice(RETIRED_PREFIX.length))) await sql.raw(`drop table if exists "${name}"`).execute(db);
}

/**
 * Deletes one partition's rows older than `cutoff` (unix seconds) in batches: each batch finds
 * its rows by the (created_at, id) index and deletes them by physical address, within the
 * partition, so no batch scans the others.
 */
async function deleteOlderRows(partition: string, cutoff: number): Promise<number> {
  const db = await getDb();
  const table = sql.table(partition);
  let deleted = 0;
  for (;;) {
    const result = await sql`
      delete from ${table} where ctid = any(array(
        select ctid from ${table} where created_at < ${cutoff} order by created_at, id limit ${RETENTION_BATCH_ROWS}
      ))
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
  await dropRetiredLeftovers();
  const plan = planRetention(await listLogPartitions(), cutoff, Math.floor(Date.now() / 1000));
  let droppedRows = 0;
  const dropMs: number[] = [];
  const detachedMs: number[] = [];
  for (const name of plan.drop) {
    const counted = exactCount
      ? await sql<{ n: number }>`select count(*)::int8 as n from ${sql.table(name)}`.execute(db)
      : await sql<{ n: number }>`select greatest(reltuples, 0)::int8 as n from pg_class where relname = ${name}`.execute(db);
    droppedRows += Number(counted.rows[0]?.n ?? 0);
    const started = performance.now();
    const { detachMs } = await dropPartition(name);
    dropMs.push(Math.round(performance.now() - started));
    detachedMs.push(detachMs);
  }
  const started = performance.now();
  let deletedRows = 0;
  for (const name of plan.trim) deletedRows += await deleteOlderRows(name, cutoff);
  return { dropped: plan.drop, droppedRows, deletedRows, dropMs, detachMs: detachedMs, deleteMs: Math.round(performance.now() - started) };
}
