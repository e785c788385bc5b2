import { sql, type ExpressionBuilder } from "kysely";
import type { DB } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { HOUR, readRollupProgress } from "~/domain/usage/rollups.server";
import { where, type LogFilter } from "./logs.server";
import { LOG_TYPE } from "~/domain/logs/log-types";

type Sums = { quota: number; requests: number; tokens: number };

async function sumLogs(filter: LogFilter): Promise<Sums> {
  const db = await getDb();
  const row = await where(
    db
      .selectFrom("logs")
      .select((eb: ExpressionBuilder<DB, "logs">) => [
        eb.fn.coalesce(eb.fn.sum<number>("quota"), sql<number>`0`).as("quota"),
        eb.fn.countAll<number>().as("requests"),
        eb.fn.coalesce(eb.fn.sum<number>(sql`prompt_tokens + completion_tokens`), sql<number>`0`).as("tokens"),
      ]),
    filter,
  ).executeTakeFirstOrThrow();
  return { quota: Number(row.quota), requests: Number(row.requests), tokens: Number(row.tokens) };
}

/**
 * Which rollup answers a filter (decision 024): by channel, by token, by user, or per model over
 * all users; each also has the model and the hour. A group filter, or a channel combined with a
 * user or a token, is none of them: those are summed from the logs.
 */
type RollupTable = "quota_data" | "quota_data_models" | "quota_data_channels" | "quota_data_tokens";

function rollupFor(filter: LogFilter): RollupTable | undefined {
  const namesUser = filter.userId !== undefined || Boolean(filter.username);
  if (filter.group) return undefined;
  if (filter.channelId !== undefined) return namesUser || filter.tokenName ? undefined : "quota_data_channels";
  if (filter.tokenName) return "quota_data_tokens";
  return namesUser ? "quota_data" : "quota_data_models";
}

/** Quota of the whole hours [from, to) from the rollup table that answers the filter. */
async function sumRollups(table: RollupTable, filter: LogFilter, from: number, to: number): Promise<number> {
  const db = await getDb();
  // Every rollup has the model and the hour; the rest are the table's own dimensions.
  const conditions = [sql`created_at >= ${from}`, sql`created_at < ${to}`];
  if (filter.modelName) conditions.push(sql`model_name = ${filter.modelName}`);
  if (table === "quota_data_channels") conditions.push(sql`channel_id = ${filter.channelId ?? -1}`);
  if (table === "quota_data_tokens") conditions.push(sql`token_name = ${filter.tokenName ?? ""}`);
  if (table === "quota_data" || table === "quota_data_tokens") {
    if (filter.userId !== undefined) conditions.push(sql`user_id = ${filter.userId}`);
    if (filter.username) conditions.push(sql`username = ${filter.username}`);
  }
  const { rows } = await sql<{ quota: number | string }>`
    select coalesce(sum(quota), 0) as quota from ${sql.table(table)} where ${sql.join(conditions, sql` and `)}
  `.execute(db);
  return Number(rows[0]?.quota ?? 0);
}

/**
 * Quota spent under the filters (consumption only). Whole hours already rolled up come from the
 * rollups (decision 023); the partial hours at the range's edges and everything since the
 * rollup's progress marker come from the logs, a few thousand rows at most. The sum equals the
 * logs' own as long as no log arrives for an hour after it was rolled up (a journal replayed
 * after a crash; the next run's lookback recomputes that hour).
 */
async function spentQuota(filter: LogFilter): Promise<number> {
  const table = rollupFor(filter);
  const progress = table ? await readRollupProgress() : undefined;
  if (!table || !progress) return (await sumLogs(filter)).quota;
  const firstHour = filter.start === undefined ? 0 : Math.ceil(filter.start / HOUR) * HOUR;
  const endExclusive = filter.end === undefined ? Number.MAX_SAFE_INTEGER : filter.end + 1;
  const lastHour = Math.min(Math.floor(endExclusive / HOUR) * HOUR, progress.rolledUntil);
  if (lastHour <= firstHour) return (await sumLogs(filter)).quota;
  const parts = await Promise.all([
    sumRollups(table, filter, firstHour, lastHour),
    filter.start !== undefined && filter.start < firstHour
      ? sumLogs({ ...filter, end: firstHour - 1 }).then((s) => s.quota)
      : 0,
    sumLogs({ ...filter, start: lastHour }).then((s) => s.quota),
  ]);
  return parts.reduce((sum, part) => sum + part, 0);
}

/**
 * The stat line above the log list: quota spent under the filters, and requests and tokens of
 * the last 60 seconds (rpm, tpm). Only consumption counts, whatever type the list shows.
 */
export async function logStat(filter: LogFilter, now = Math.floor(Date.now() / 1000)) {
  const consume = { ...filter, type: LOG_TYPE.consume };
  const [quota, recent] = await Promise.all([
    spentQuota(consume),
    sumLogs({ ...consume, start: Math.max(consume.start ?? 0, now - 60) }),
  ]);
  return { quota, rpm: recent.requests, tpm: recent.tokens };
}

/** The same figures straight from the logs (what the rollup path must agree with; used by tests and checks). */
export async function logStatFromLogs(filter: LogFilter, now = Math.floor(Date.now() / 1000)) {
  const consume = { ...filter, type: LOG_TYPE.consume };
  const [total, recent] = await Promise.all([
    sumLogs(consume),
    sumLogs({ ...consume, start: Math.max(consume.start ?? 0, now - 60) }),
  ]);
  return { quota: total.quota, rpm: recent.requests, tpm: recent.tokens };
}
