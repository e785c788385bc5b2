import { sql, type ExpressionBuilder, type Selectable, type SelectQueryBuilder } from "kysely";
import type { DB } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { tokenKeyHash } from "~/domain/tokens/token-keys.server";

/** Log types as the reference numbers them. */
export const LOG_TYPE = { unknown: 0, topup: 1, consume: 2, manage: 3, system: 4 } as const;

export type LogFilter = {
  userId?: number;
  username?: string;
  type?: number;
  tokenName?: string;
  modelName?: string;
  start?: number;
  end?: number;
  channelId?: number;
  group?: string;
};

const INT4_MAX = 2_147_483_647;

/** A whole number within the column's range, else no filter (never a value the database refuses). */
const intParam = (params: URLSearchParams, name: string, max = INT4_MAX): number | undefined => {
  const raw = params.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) && Math.abs(value) <= max ? value : undefined;
};
const textParam = (params: URLSearchParams, name: string): string | undefined => params.get(name)?.trim() || undefined;

/**
 * The filters of the log list and its statistics, from the query string. A user's own view is
 * pinned to the user (their `username`/`channel` parameters are ignored); an admin may filter by
 * user name and channel too. Type 0 means "all types", as in the reference's console.
 */
export function readLogFilter(params: URLSearchParams, scope: { userId: number } | "all"): LogFilter {
  const type = intParam(params, "type");
  const filter: LogFilter = {
    type: type ? type : undefined,
    tokenName: textParam(params, "token_name"),
    modelName: textParam(params, "model_name"),
    start: intParam(params, "start_timestamp", Number.MAX_SAFE_INTEGER) || undefined,
    end: intParam(params, "end_timestamp", Number.MAX_SAFE_INTEGER) || undefined,
    group: textParam(params, "group"),
  };
  if (scope === "all") {
    filter.username = textParam(params, "username");
    filter.channelId = intParam(params, "channel") || undefined;
  } else filter.userId = scope.userId;
  return filter;
}

function where<O>(query: SelectQueryBuilder<DB, "logs", O>, filter: LogFilter): SelectQueryBuilder<DB, "logs", O> {
  let q = query;
  if (filter.userId !== undefined) q = q.where("user_id", "=", filter.userId);
  if (filter.username) q = q.where("username", "=", filter.username);
  if (filter.type !== undefined) q = q.where("type", "=", filter.type);
  if (filter.tokenName) q = q.where("token_name", "=", filter.tokenName);
  if (filter.modelName) q = q.where("model_name", "=", filter.modelName);
  if (filter.start !== undefined) q = q.where("created_at", ">=", filter.start);
  if (filter.end !== undefined) q = q.where("created_at", "<=", filter.end);
  if (filter.channelId !== undefined) q = q.where("channel_id", "=", filter.channelId);
  if (filter.group) q = q.where("group", "=", filter.group);
  return q;
}

/**
 * A log row in the reference's JSON shape (`channel` for the channel id). Users never see
 * `admin_info` (which channels were tried) nor channel names: those describe the operator's setup.
 */
export function toLogJson(row: Selectable<DB["logs"]>, forAdmin: boolean, channelNames?: Map<number, string>) {
  const { channel_id, other, ...rest } = row;
  let shownOther = other;
  if (!forAdmin && other) {
    try {
      const parsed = JSON.parse(other) as Record<string, unknown>;
      delete parsed.admin_info;
      shownOther = JSON.stringify(parsed);
    } catch {
      shownOther = "";
    }
  }
  return { ...rest, channel: channel_id, ...(forAdmin ? { channel_name: channelNames?.get(channel_id) ?? "" } : {}), other: shownOther };
}

/**
 * Rows written without a user name (channel tests logged as user 1 with `username: ""` before they stored root's name) get their
 * user's current name, so the user column of the reference's console is never blank (item 22).
 */
async function withUsernames<R extends { user_id: number; username: string }>(rows: R[]): Promise<R[]> {
  const ids = [...new Set(rows.filter((row) => !row.username && row.user_id > 0).map((row) => row.user_id))];
  if (ids.length === 0) return rows;
  const db = await getDb();
  const users = await db.selectFrom("users").select(["id", "username"]).where("id", "in", ids).execute();
  const names = new Map(users.map((u) => [u.id, u.username]));
  return rows.map((row) => (row.username ? row : { ...row, username: names.get(row.user_id) ?? "" }));
}

/** One page (1-based, as the reference's log list) of logs, newest first. */
export async function listLogs(filter: LogFilter, page: number, size: number, forAdmin: boolean) {
  const db = await getDb();
  const [rows, count] = await Promise.all([
    where(db.selectFrom("logs").selectAll(), filter)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    where(db.selectFrom("logs").select((eb) => eb.fn.countAll<number>().as("n")), filter).executeTakeFirstOrThrow(),
  ]);
  let channelNames: Map<number, string> | undefined;
  if (forAdmin) {
    const ids = [...new Set(rows.map((row) => row.channel_id).filter((id) => id > 0))];
    const channels = ids.length ? await db.selectFrom("channels").select(["id", "name"]).where("id", "in", ids).execute() : [];
    channelNames = new Map(channels.map((c) => [c.id, c.name]));
  }
  const named = await withUsernames(rows);
  return { items: named.map((row) => toLogJson(row, forAdmin, channelNames)), total: Number(count.n) };
}

/**
 * The stat line above the log list: quota spent under the filters, and requests and tokens of
 * the last 60 seconds (rpm, tpm). Only consumption counts, whatever type the list shows.
 */
export async function logStat(filter: LogFilter, now = Math.floor(Date.now() / 1000)) {
  const db = await getDb();
  const consume = { ...filter, type: LOG_TYPE.consume };
  const sums = (eb: ExpressionBuilder<DB, "logs">) => [
    eb.fn.coalesce(eb.fn.sum<number>("quota"), sql<number>`0`).as("quota"),
    eb.fn.countAll<number>().as("requests"),
    eb.fn.coalesce(eb.fn.sum<number>(sql`prompt_tokens + completion_tokens`), sql<number>`0`).as("tokens"),
  ];
  const [total, recent] = await Promise.all([
    where(db.selectFrom("logs").select(sums), consume).executeTakeFirstOrThrow(),
    where(db.selectFrom("logs").select(sums), { ...consume, start: Math.max(consume.start ?? 0, now - 60) }).executeTakeFirstOrThrow(),
  ]);
  return { quota: Number(total.quota), rpm: Number(recent.requests), tpm: Number(recent.tokens) };
}

/** Balance cards of the users behind a page of logs (the admin's user popup). */
export async function userCardsOf(userIds: number[]): Promise<Record<number, { username: string; quota: number; used_quota: number; request_count: number }>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return {};
  const db = await getDb();
  const rows = await db.selectFrom("users").select(["id", "username", "quota", "used_quota", "request_count"]).where("id", "in", ids).execute();
  return Object.fromEntries(rows.map(({ id, ...card }) => [id, card]));
}

/** Deletes every log older than `before` (unix seconds); returns how many went. */
export async function deleteLogsBefore(before: number): Promise<number> {
  const db = await getDb();
  const result = await db.deleteFrom("logs").where("created_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The newest logs (at most 100) of the token whose key is presented: how chat apps show a key's
 * own usage. The key is the credential, so a wrong one learns nothing, not even that it is wrong
 * in some particular way.
 */
export async function logsOfTokenKey(key: string) {
  const db = await getDb();
  const token = await db.selectFrom("tokens").select(["id", "user_id"]).where("key_hash", "=", tokenKeyHash(key)).executeTakeFirst();
  if (!token) return undefined;
  const rows = await db
    .selectFrom("logs")
    .selectAll()
    .where("user_id", "=", token.user_id)
    .where("token_id", "=", token.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(100)
    .execute();
  return (await withUsernames(rows)).map((row) => toLogJson(row, false));
}
