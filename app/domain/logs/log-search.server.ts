import type { Selectable, SelectQueryBuilder } from "kysely";
import type { DB } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { tokenKeyHash } from "~/domain/tokens/token-keys.server";
import { toLogJson, where, withUsernames, type LogCursor, type LogFilter } from "./logs.server";

/**
 * The newest logs (at most 100) of the token whose key is presented: how chat apps show a key's
 * own usage. The key is the credential, so a wrong one learns nothing, not even that it is wrong
 * in some particular way.
 */
export async function logsOfTokenKey(key: string) {
  const db = await getDb();
  const token = await db
    .selectFrom("tokens")
    .select(["id", "user_id"])
    .where("key_hash", "=", tokenKeyHash(key))
    .executeTakeFirst();
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

const SEARCH_LIMIT = 100;
/** Content is matched by prefix among this many newest rows only: it has no index (a full scan of millions of rows otherwise). */
const CONTENT_SEARCH_WINDOW = 10_000;

/**
 * The reference's keyword search (`[Log]`, at most 100, newest first): rows whose user name
 * (admins), token name or model name equals the keyword, whose type, id or channel (admins)
 * is the keyword as a number, or whose details start with it (among recent rows). Each arm is
 * an index range read of at most 100 rows; the arms are merged.
 */
export async function searchLogs(keyword: string, scope: { userId: number } | "all") {
  const db = await getDb();
  const forAdmin = scope === "all";
  const kw = keyword.trim().slice(0, 200);
  const scoped = () => {
    const q = db.selectFrom("logs").selectAll();
    return forAdmin ? q : q.where("user_id", "=", scope.userId);
  };
  const newest = <O>(q: SelectQueryBuilder<DB, "logs", O>) =>
    q.orderBy("created_at", "desc").orderBy("id", "desc").limit(SEARCH_LIMIT).execute();
  let arms: Promise<Selectable<DB["logs"]>[]>[];
  if (!kw) arms = [newest(scoped())];
  else {
    arms = [newest(scoped().where("token_name", "=", kw)), newest(scoped().where("model_name", "=", kw))];
    if (forAdmin) arms.push(newest(scoped().where("username", "=", kw)));
    const n = /^\d{1,9}$/.test(kw) ? Number(kw) : undefined;
    if (n !== undefined) {
      if (n <= 4) arms.push(newest(scoped().where("type", "=", n)));
      arms.push(newest(scoped().where("id", "=", n)));
      if (forAdmin) arms.push(newest(scoped().where("channel_id", "=", n)));
    }
    const recent = scoped()
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(CONTENT_SEARCH_WINDOW)
      .as("recent");
    const pattern = `${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    arms.push(
      db
        .selectFrom(recent)
        .selectAll()
        .where("content", "like", pattern)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(SEARCH_LIMIT)
        .execute(),
    );
  }
  const seen = new Set<number>();
  const merged = (await Promise.all(arms))
    .flat()
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id)
    .filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)))
    .slice(0, SEARCH_LIMIT);
  let channelNames: Map<number, string> | undefined;
  if (forAdmin) {
    const ids = [...new Set(merged.map((row) => row.channel_id).filter((id) => id > 0))];
    const channels = ids.length
      ? await db.selectFrom("channels").select(["id", "name"]).where("id", "in", ids).execute()
      : [];
    channelNames = new Map(channels.map((c) => [c.id, c.name]));
  }
  return (await withUsernames(merged)).map((row) => toLogJson(row, forAdmin, channelNames));
}

/**
 * The filtered log in batches, newest first, each read by keyset after the last (a fresh
 * short query each: no transaction or cursor held open while a slow client downloads).
 */
const EXPORTED_COLUMNS = [
  "id",
  "created_at",
  "type",
  "content",
  "user_id",
  "username",
  "token_name",
  "model_name",
  "quota",
  "prompt_tokens",
  "completion_tokens",
  "use_time",
  "is_stream",
  "channel_id",
] as const;

export async function* logBatches(filter: LogFilter, batchSize = 1000) {
  const db = await getDb();
  let cursor: LogCursor | undefined;
  for (;;) {
    let q = where(db.selectFrom("logs").select(EXPORTED_COLUMNS), filter);
    if (cursor) {
      const c = cursor;
      q = q.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(c.createdAt, c.id)));
    }
    const rows = await q.orderBy("created_at", "desc").orderBy("id", "desc").limit(batchSize).execute();
    if (rows.length === 0) return;
    yield await withUsernames(rows);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: last.created_at, id: last.id };
  }
}
