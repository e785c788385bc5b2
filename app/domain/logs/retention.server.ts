import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { parsePartitionBound, planRetention, type LogPartition } from "./retention";

/**
 * Log retention and "clear logs before" (decision 029): monthly partitions entirely older than
 * the cutoff are truncated, then detached and dropped (dropPartition: no lock the relay's inserts
 * wait on, and no dead rows left to vacuum); the
 * edge month's and the default partition's older rows are deleted in bounded batches with a
 * pause between them, so no statement holds locks or the disk for long. The rollup tables
 * (quota_data*) are not touched: the dashboard keeps its history.
 */
export const RETENTION_BATCH_ROWS = 5_000;
const PAUSE_BETWEEN_BATCHES_MS = 20;
// Truncating a month waits for its readers, detaching it for every user of `logs`; queued behind
// a long reader either would stall others, so each waits at most this long and tries again later.
const DROP_LOCK_TIMEOUT = "500ms";
const DROP_ATTEMPTS = 5;
// Truncating an old month blocks only that month's readers, so it may wait longer: past the
// server's deadlock_timeout (1 s by default), an autovacuum working on the month cancels itself
// for the waiting lock — with 500 ms tries it never did (measured: a freshly written month was
// being vacuumed, and all five tries timed out).
const TRUNCATE_LOCK_TIMEOUT = "3s";

/**
 * What went, and how long it took (ms; the benchmark reads them from the job's message): each
 * month's whole removal, the part of it that held the lock on `logs`, and the batched deletes.
 */
export type PruneResult = {
  dropped: string[];
  droppedRows: number;
  deletedRows: number;
  dropMs: number[];
  emptyMs: number[];
  deleteMs: number;
};

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

/** Runs `statements` in one transaction under a short lock_timeout, retried a few times; false when the lock never came. */
async function withBriefLock(statements: string[], attempts: number, lockTimeout: string): Promise<boolean> {
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction().execute(async (trx) => {
        await sql.raw(`set local lock_timeout = '${lockTimeout}'`).execute(trx);
        for (const statement of statements) await sql.raw(statement).execute(trx);
      });
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== "55P03") throw error;
      if (attempt >= attempts) return false;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/**
 * Empties a month, then takes it out of `logs`. TRUNCATE frees the month's files at once and
 * locks only that partition, which no insert routes to (inserts go to the current month), so
 * it never waits on the relay. Detaching the emptied table needs a brief exclusive lock on
 * `logs` itself, which a busy relay's stream of inserts can keep from coming (measured: at
 * 2 500 inserts/s five 500 ms tries all timed out): it is tried, and when it does not come the
 * empty table stays attached — harmless — for the next run to take out. A table detached by a
 * run that died before dropping it is renamed in the same transaction, so the next run finds it.
 */
async function dropPartition(name: string): Promise<{ emptyMs: number }> {
  if (!PARTITION_NAME.test(name)) throw new Error(`not a log partition: ${name}`);
  const started = performance.now();
  if (!(await withBriefLock([`truncate table "${name}"`], DROP_ATTEMPTS, TRUNCATE_LOCK_TIMEOUT))) {
    throw Object.assign(new Error(`日志分区 ${name} 正被读取，稍后再试`), { code: "55P03" });
  }
  const emptyMs = Math.round(performance.now() - started);
  const detached = await withBriefLock(
    [`alter table logs detach partition "${name}"`, `alter table "${name}" rename to "${RETIRED_PREFIX}${name}"`],
    2,
    DROP_LOCK_TIMEOUT,
  );
  if (detached) await sql.raw(`drop table if exists "${RETIRED_PREFIX}${name}"`).execute(await getDb());
  return { emptyMs };
}

/** Months detached by a run that died before dropping them. */
async function dropRetiredLeftovers(): Promise<void> {
  const db = await getDb();
  const { rows } = await sql<{
    name: string;
  }>`select relname as name from pg_class where relkind = 'r' and relname like ${`${RETIRED_PREFIX}logs\\_%`}`.execute(
    db,
  );
  for (const { name } of rows)
    if (PARTITION_NAME.test(name.slice(RETIRED_PREFIX.length)))
      await sql.raw(`drop table if exists "${name}"`).execute(db);
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
  const emptiedMs: number[] = [];
  for (const name of plan.drop) {
    const counted = exactCount
      ? await sql<{ n: number }>`select count(*)::int8 as n from ${sql.table(name)}`.execute(db)
      : await sql<{
          n: number;
        }>`select greatest(reltuples, 0)::int8 as n from pg_class where relname = ${name}`.execute(db);
    droppedRows += Number(counted.rows[0]?.n ?? 0);
    const started = performance.now();
    const { emptyMs } = await dropPartition(name);
    dropMs.push(Math.round(performance.now() - started));
    emptiedMs.push(emptyMs);
  }
  const started = performance.now();
  let deletedRows = 0;
  for (const name of plan.trim) deletedRows += await deleteOlderRows(name, cutoff);
  return {
    dropped: plan.drop,
    droppedRows,
    deletedRows,
    dropMs,
    emptyMs: emptiedMs,
    deleteMs: Math.round(performance.now() - started),
  };
}
