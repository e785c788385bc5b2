import { CompiledQuery, sql, type Selectable, type SelectQueryBuilder } from "kysely";
import type { DB } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { pruneLogsBefore } from "./retention.server";

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

export function where<O>(
  query: SelectQueryBuilder<DB, "logs", O>,
  filter: LogFilter,
): SelectQueryBuilder<DB, "logs", O> {
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
  return {
    ...rest,
    channel: channel_id,
    ...(forAdmin ? { channel_name: channelNames?.get(channel_id) ?? "" } : {}),
    other: shownOther,
  };
}

/**
 * Rows written without a user name (channel tests logged as user 1 with `username: ""` before they stored root's name) get their
 * user's current name, so the user column of the reference's console is never blank.
 */
export async function withUsernames<R extends { user_id: number; username: string }>(rows: R[]): Promise<R[]> {
  const ids = [...new Set(rows.filter((row) => !row.username && row.user_id > 0).map((row) => row.user_id))];
  if (ids.length === 0) return rows;
  const db = await getDb();
  const users = await db.selectFrom("users").select(["id", "username"]).where("id", "in", ids).execute();
  const names = new Map(users.map((u) => [u.id, u.username]));
  return rows.map((row) => (row.username ? row : { ...row, username: names.get(row.user_id) ?? "" }));
}

/** A position in the log's order (newest first): the row's time and id. */
export type LogCursor = { createdAt: number; id: number };

/** `<created_at>_<id>` in a query string; anything else is no cursor. */
export function readLogCursor(raw: string | null): LogCursor | undefined {
  const match = raw ? /^(\d{1,15})_(\d{1,18})$/.exec(raw.trim()) : null;
  if (!match) return undefined;
  const createdAt = Number(match[1]);
  const id = Number(match[2]);
  return Number.isSafeInteger(createdAt) && Number.isSafeInteger(id) ? { createdAt, id } : undefined;
}
export const cursorParam = (row: { created_at: number; id: number }): string => `${row.created_at}_${row.id}`;

/**
 * Which slice of the filtered log: `p` pages (1-based, the reference's API) by offset, which
 * is bounded (deep offsets read and skip every row above them), or keyset slices just older
 * (`before`) or newer (`after`) than a row, which cost the same at any depth (decision 024).
 */
export type LogSlice = { size: number } & ({ page: number } | { before: LogCursor } | { after: LogCursor });

/** The deepest row an offset page may start at; past it, pages are reached by cursor. */
export const MAX_LOG_OFFSET = 10_000;
/** Totals up to this are counted exactly; above it the planner's estimate is shown ("约"). */
const EXACT_COUNT_LIMIT = 10_000;

export type LogPage<T> = {
  items: T[];
  total: number;
  /** false: `total` is the planner's estimate (more than EXACT_COUNT_LIMIT rows match). */
  totalExact: boolean;
  /** Cursor of the last row when older rows follow (the "next page" link). */
  older?: string;
  /** Cursor of the first row when newer rows precede it (the "previous page" link). */
  newer?: string;
  /** The offset page was past MAX_LOG_OFFSET: nothing was read. */
  tooDeep?: boolean;
};

/**
 * How many logs match, exactly when at most EXACT_COUNT_LIMIT do (an index range read of that
 * many entries at worst), else the planner's estimate, never below what was counted.
 */
async function countLogs(filter: LogFilter): Promise<{ total: number; exact: boolean }> {
  const db = await getDb();
  const limited = where(db.selectFrom("logs").select(sql<number>`1`.as("one")), filter).limit(EXACT_COUNT_LIMIT + 1);
  const counted = await db
    .selectFrom(limited.as("matching"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const n = Number(counted.n);
  if (n <= EXACT_COUNT_LIMIT) return { total: n, exact: true };
  const compiled = where(db.selectFrom("logs").select(sql<number>`1`.as("one")), filter).compile();
  const plan = await db.executeQuery<{ "QUERY PLAN": unknown }>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = plan.rows[0]?.["QUERY PLAN"];
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: { "Plan Rows": number } }];
  return { total: Math.max(n, Math.round(parsed[0]?.Plan["Plan Rows"] ?? 0)), exact: false };
}

/** One slice of logs, newest first, with a total (exact or estimated) and the neighbouring slices' cursors. */
export async function listLogs(
  filter: LogFilter,
  slice: LogSlice,
  forAdmin: boolean,
): Promise<LogPage<ReturnType<typeof toLogJson>>> {
  const db = await getDb();
  const base = where(db.selectFrom("logs").selectAll(), filter);
  const size = slice.size;
  let rows: Selectable<DB["logs"]>[];
  let hasOlder = false;
  let hasNewer = false;
  let tooDeep = false;
  const countPromise = countLogs(filter);
  // Awaited below; until then a failure must not count as unhandled (it would end the process).
  countPromise.catch(() => undefined);
  if ("before" in slice || "after" in slice) {
    const newerSide = "after" in slice;
    const cursor = newerSide ? slice.after : slice.before;
    const direction = newerSide ? "asc" : "desc";
    const fetched = await base
      .where((eb) => eb(eb.refTuple("created_at", "id"), newerSide ? ">" : "<", eb.tuple(cursor.createdAt, cursor.id)))
      .orderBy("created_at", direction)
      .orderBy("id", direction)
      .limit(size + 1)
      .execute();
    const more = fetched.length > size;
    rows = fetched.slice(0, size);
    if (newerSide) {
      rows.reverse();
      hasNewer = more;
      hasOlder = true;
    } else {
      hasOlder = more;
      hasNewer = true;
    }
  } else {
    const offset = (slice.page - 1) * size;
    if (offset > MAX_LOG_OFFSET) {
      rows = [];
      tooDeep = true;
    } else {
      const fetched = await base
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(size + 1)
        .offset(offset)
        .execute();
      hasOlder = fetched.length > size;
      rows = fetched.slice(0, size);
      hasNewer = offset > 0;
    }
  }
  let channelNames: Map<number, string> | undefined;
  if (forAdmin) {
    const ids = [...new Set(rows.map((row) => row.channel_id).filter((id) => id > 0))];
    const channels = ids.length
      ? await db.selectFrom("channels").select(["id", "name"]).where("id", "in", ids).execute()
      : [];
    channelNames = new Map(channels.map((c) => [c.id, c.name]));
  }
  const [named, count] = await Promise.all([withUsernames(rows), countPromise]);
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    items: named.map((row) => toLogJson(row, forAdmin, channelNames)),
    total: count.total,
    totalExact: count.exact,
    older: hasOlder && last ? cursorParam(last) : undefined,
    newer: hasNewer && first ? cursorParam(first) : undefined,
    ...(tooDeep ? { tooDeep } : {}),
  };
}

/** Balance cards of the users behind a page of logs (the admin's user popup). */
export async function userCardsOf(
  userIds: number[],
): Promise<Record<number, { username: string; quota: number; used_quota: number; request_count: number }>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return {};
  const db = await getDb();
  const rows = await db
    .selectFrom("users")
    .select(["id", "username", "quota", "used_quota", "request_count"])
    .where("id", "in", ids)
    .execute();
  return Object.fromEntries(rows.map(({ id, ...card }) => [id, card]));
}

/**
 * Deletes every log older than `before` (unix seconds); returns how many went. The retention
 * job's path (decision 029): whole months dropped, the edge month deleted in batches.
 */
export async function deleteLogsBefore(before: number): Promise<number> {
  const result = await pruneLogsBefore(before, { exactCount: true });
  return result.droppedRows + result.deletedRows;
}

/**
 * The slice a list request asks for: `before`/`after` cursors (what the console's next and
 * previous links carry), else the reference's 1-based `p`.
 */
export function readLogSlice(params: URLSearchParams, page: number, size: number): LogSlice {
  const before = readLogCursor(params.get("before"));
  if (before) return { size, before };
  const after = readLogCursor(params.get("after"));
  if (after) return { size, after };
  return { size, page };
}

/** The list API's data: the reference's `{items,total,page,page_size}` plus whether the total is exact and the next slice's cursor. */
export function logPageJson<T>(page: LogPage<T>, pageNumber: number, size: number) {
  return {
    items: page.items,
    total: page.total,
    page: pageNumber,
    page_size: size,
    total_exact: page.totalExact,
    next_before: page.older ?? "",
    prev_after: page.newer ?? "",
  };
}
