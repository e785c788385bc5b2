import { sql } from "kysely";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { getDb } from "~/utils/db.server";
import type { Result } from "~/utils/result";
import type { HourlyUsage } from "./buckets";
import { HOUR, hourOf, readRollupProgress } from "./rollups.server";

/**
 * Usage per model and hour for the dashboard and /api/data: the rollups for hours already rolled
 * up (decision 023), the logs themselves after that (at most one DataExportInterval plus the
 * current hour), so a call made a minute ago is on the dashboard too. Ranges are whole hours:
 * the start is taken back to the start of its hour.
 */
export type UsageScope = { kind: "all" } | { kind: "user"; userId: number };

export type UsageRow = HourlyUsage & { user_id: number; username: string };

/** Longest range a user may ask for (the reference's limit) and an admin (bounded work). */
export const SELF_MAX_RANGE = 30 * 24 * HOUR;
export const ADMIN_MAX_RANGE = 366 * 24 * HOUR;
export const DEFAULT_RANGE = 7 * 24 * HOUR;

export type UsageRange = { start: number; end: number };

export type RangeResult = Result<UsageRange>;

/** start/end (unix seconds) from a query: defaults to the last 7 days; bounded by `maxRange`. */
export function readUsageRange(
  startText: string | null,
  endText: string | null,
  maxRange: number,
  now = Math.floor(Date.now() / 1000),
): RangeResult {
  const parse = (text: string | null) => {
    if (text === null || text.trim() === "") return undefined;
    const n = Number(text);
    return Number.isSafeInteger(n) && n >= 0 && n <= 253_402_300_799 ? n : NaN;
  };
  const end = parse(endText) ?? now;
  const start = parse(startText) ?? end - DEFAULT_RANGE;
  if (Number.isNaN(start) || Number.isNaN(end)) return { ok: false, message: "时间参数必须是 Unix 时间戳（秒）" };
  if (end < start) return { ok: false, message: "结束时间不能早于开始时间" };
  if (end - start > maxRange)
    return { ok: false, message: maxRange <= SELF_MAX_RANGE ? "时间跨度不能超过一个月" : "时间跨度不能超过一年" };
  return { ok: true, value: { start, end } };
}

const num = (v: unknown) => Number(v ?? 0);

async function fromRollups(scope: UsageScope, from: number, to: number): Promise<HourlyUsage[]> {
  if (to <= from) return [];
  const db = await getDb();
  if (scope.kind === "all") {
    const rows = await db
      .selectFrom("quota_data_models")
      .select(["model_name", "created_at", "count", "token_used", "quota"])
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .execute();
    return rows.map((r) => ({
      model_name: r.model_name,
      created_at: num(r.created_at),
      count: num(r.count),
      token_used: num(r.token_used),
      quota: num(r.quota),
    }));
  }
  const rows = await db
    .selectFrom("quota_data")
    .select(["model_name", "created_at", "count", "token_used", "quota"])
    .where("user_id", "=", scope.userId)
    .where("created_at", ">=", from)
    .where("created_at", "<", to)
    .execute();
  return rows.map((r) => ({
    model_name: r.model_name,
    created_at: num(r.created_at),
    count: num(r.count),
    token_used: num(r.token_used),
    quota: num(r.quota),
  }));
}

async function fromLogs(scope: UsageScope, from: number, to: number): Promise<HourlyUsage[]> {
  if (to <= from) return [];
  const db = await getDb();
  let query = db
    .selectFrom("logs")
    .select([
      "model_name",
      sql<number>`(created_at / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`.as("hour"),
      sql<number>`count(*)`.as("count"),
      sql<number>`coalesce(sum(prompt_tokens + completion_tokens), 0)`.as("token_used"),
      sql<number>`coalesce(sum(quota), 0)`.as("quota"),
    ])
    .where("type", "=", LOG_TYPE.consume)
    .where("created_at", ">=", from)
    .where("created_at", "<", to)
    .groupBy(["model_name", sql`(created_at / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`]);
  if (scope.kind === "user") query = query.where("user_id", "=", scope.userId);
  const rows = await query.execute();
  return rows.map((r) => ({
    model_name: r.model_name,
    created_at: num(r.hour),
    count: num(r.count),
    token_used: num(r.token_used),
    quota: num(r.quota),
  }));
}

/** Hourly usage per model of `scope` in the range, oldest first. */
export async function readHourlyUsage(scope: UsageScope, range: UsageRange): Promise<HourlyUsage[]> {
  const from = hourOf(range.start);
  const to = range.end + 1;
  const progress = await readRollupProgress();
  // Before the first rollup run everything comes from the logs (a fresh install: few rows).
  const split = Math.min(Math.max(progress?.rolledUntil ?? from, from), to);
  const [rolled, live] = await Promise.all([fromRollups(scope, from, split), fromLogs(scope, split, to)]);
  return [...rolled, ...live].sort((a, b) => a.created_at - b.created_at || a.model_name.localeCompare(b.model_name));
}

/** The user a dashboard filter names (live accounts only), or undefined. */
export async function findUserIdByName(username: string): Promise<number | undefined> {
  const db = await getDb();
  const row = await db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirst();
  return row?.id;
}

/** The reference's QuotaData JSON for /api/data: one row per model and hour. */
export function toQuotaDataJson(rows: HourlyUsage[], user: { id: number; username: string } | undefined) {
  return rows.map((r, i) => ({
    id: i + 1,
    user_id: user?.id ?? 0,
    username: user?.username ?? "",
    model_name: r.model_name,
    created_at: r.created_at,
    token_used: r.token_used,
    count: r.count,
    quota: r.quota,
  }));
}
