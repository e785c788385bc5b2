import { sql, type Kysely, type Transaction } from "kysely";
import type { DB } from "../../../db/schema";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { getDb } from "~/utils/db.server";

/**
 * Hourly usage rollups (docs/decisions/023): one quota_data row per (user, model, hour) with the
 * requests, tokens and quota of that hour's consumption logs, and one quota_data_models row per
 * (model, hour) with the same over all users, and the same per (channel, model, hour) and per
 * (user, token name, model, hour) for the log stat filtered by a channel or a token. The dashboard and the log
 * statistics read these instead of scanning millions of log rows.
 *
 * A run recomputes whole hours from the logs and overwrites their rows, so running it twice,
 * or re-running an hour, never counts anything twice. Each run covers the hours since the
 * last run plus LOOKBACK_HOURS before it: a settlement replayed from a node's journal after a
 * crash arrives with its original (earlier) time, and is picked up when its hour is recomputed.
 */
export const HOUR = 3600;
const LOOKBACK_HOURS = 6;
/** A first run over a large existing log rolls up at most this much history per run. */
const MAX_HOURS_PER_RUN = 24 * 31;

export const hourOf = (unixSeconds: number): number => Math.floor(unixSeconds / HOUR) * HOUR;

export type RollupProgress = { rolledUntil: number; lastRunAt: number };

export async function readRollupProgress(trx?: Kysely<DB>): Promise<RollupProgress | undefined> {
  const db = trx ?? (await getDb());
  const row = await db
    .selectFrom("usage_rollup_progress")
    .select(["rolled_until", "last_run_at"])
    .where("id", "=", 1)
    .executeTakeFirst();
  return row ? { rolledUntil: Number(row.rolled_until), lastRunAt: Number(row.last_run_at) } : undefined;
}

/** The first hour with a consumption log, when nothing has been rolled up yet. */
async function firstLoggedHour(trx: Kysely<DB>): Promise<number | undefined> {
  const db = trx;
  const row = await db
    .selectFrom("logs")
    .select((eb) => eb.fn.min<number>("created_at").as("first"))
    .where("type", "=", LOG_TYPE.consume)
    .executeTakeFirst();
  return row?.first == null ? undefined : hourOf(Number(row.first));
}

/** The advisory lock one rollup run holds: a run that outlasts the job's one-minute tick, or a second node, waits its turn. */
const ROLLUP_LOCK = 2_023_024;

/**
 * Recomputes the rollup rows of the hours in [from, to) from the logs; returns rows written.
 * The per-model totals of those hours (quota_data_models: the admin's dashboard and stat line
 * read these) are recomputed from the rollup rows in the same transaction, so both agree.
 */
async function rollUpRangeIn(trx: Transaction<DB>, from: number, to: number): Promise<number> {
  if (to <= from) return 0;
  // Token counts are int4 per row: a row's two counts are added as bigint, or two near the limit overflow.
  const result = await sql`
    insert into quota_data (user_id, username, model_name, created_at, token_used, count, quota)
    select user_id, max(username), model_name, (created_at / ${HOUR}) * ${HOUR} as hour,
           sum(prompt_tokens::bigint + completion_tokens)::bigint, count(*)::bigint, sum(quota)::bigint
    from logs
    where type = ${LOG_TYPE.consume} and created_at >= ${from} and created_at < ${to}
    group by user_id, model_name, hour
    on conflict (user_id, model_name, created_at) do update
      set username = excluded.username, token_used = excluded.token_used, count = excluded.count, quota = excluded.quota
  `.execute(trx);
  await sql`
    insert into quota_data_models (model_name, created_at, token_used, count, quota)
    select model_name, created_at, sum(token_used)::bigint, sum(count)::bigint, sum(quota)::bigint
    from quota_data
    where created_at >= ${hourOf(from)} and created_at < ${to}
    group by model_name, created_at
    on conflict (model_name, created_at) do update
      set token_used = excluded.token_used, count = excluded.count, quota = excluded.quota
  `.execute(trx);
  // By channel and by token, for the log stat filtered by one (decision 024).
  await sql`
    insert into quota_data_channels (channel_id, model_name, created_at, token_used, count, quota)
    select channel_id, model_name, (created_at / ${HOUR}) * ${HOUR} as hour,
           sum(prompt_tokens::bigint + completion_tokens)::bigint, count(*)::bigint, sum(quota)::bigint
    from logs
    where type = ${LOG_TYPE.consume} and created_at >= ${from} and created_at < ${to}
    group by channel_id, model_name, hour
    on conflict (channel_id, created_at, model_name) do update
      set token_used = excluded.token_used, count = excluded.count, quota = excluded.quota
  `.execute(trx);
  await sql`
    insert into quota_data_tokens (user_id, username, token_name, model_name, created_at, token_used, count, quota)
    select user_id, max(username), token_name, model_name, (created_at / ${HOUR}) * ${HOUR} as hour,
           sum(prompt_tokens::bigint + completion_tokens)::bigint, count(*)::bigint, sum(quota)::bigint
    from logs
    where type = ${LOG_TYPE.consume} and created_at >= ${from} and created_at < ${to}
    group by user_id, token_name, model_name, hour
    on conflict (user_id, token_name, created_at, model_name) do update
      set username = excluded.username, token_used = excluded.token_used, count = excluded.count, quota = excluded.quota
  `.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Recomputes the hours in [from, to) (an import's history, an operator's re-run), after any run in progress. */
export async function rollUpRange(from: number, to: number): Promise<number> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${ROLLUP_LOCK})`.execute(trx);
    return rollUpRangeIn(trx, from, to);
  });
}

/**
 * One run of the rollup job: from the stored progress (minus the lookback) to the end of the
 * current hour. The current hour is partial and is simply recomputed by the next run. A run
 * that finds another still going (the first run over a large log takes minutes; the job ticks
 * every minute) does nothing: racing it would only make both slower.
 */
export async function rollUpUsage(
  now = Math.floor(Date.now() / 1000),
): Promise<{ from: number; to: number; rows: number; busy?: boolean }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const locked = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as ok`.execute(trx);
    const currentHour = hourOf(now);
    if (!locked.rows[0]?.ok) return { from: currentHour, to: currentHour, rows: 0, busy: true };
    const progress = await readRollupProgress(trx);
    const from = progress
      ? progress.rolledUntil - LOOKBACK_HOURS * HOUR
      : ((await firstLoggedHour(trx)) ?? currentHour);
    // A long backlog is worked through a month at a time; the progress marker moves with it.
    const to = Math.min(currentHour + HOUR, from + MAX_HOURS_PER_RUN * HOUR);
    const rows = await rollUpRangeIn(trx, from, to);
    const rolledUntil = Math.min(currentHour, to);
    await trx
      .insertInto("usage_rollup_progress")
      .values({ id: 1, rolled_until: rolledUntil, last_run_at: now })
      .onConflict((oc) => oc.column("id").doUpdateSet({ rolled_until: rolledUntil, last_run_at: now }))
      .execute();
    return { from, to, rows };
  });
}
