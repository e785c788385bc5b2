import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import { retryOnDeadlock } from "./retry-on-deadlock";
import { LOG_TYPE } from "~/domain/logs/log-types";

/**
 * The database side of quota leases (see quota.server for the in-memory side). Each function
 * is one statement, so each is atomic on its own, and each takes its row locks in the one order
 * every billing statement keeps: the lease's row, then the user's, then the token's. Two
 * statements that kept different orders could wait on each other, and PostgreSQL breaks such a
 * cycle only after `deadlock_timeout` (1 s): a second's stall for every request on that payer.
 */

export type ConsumeLog = {
  username: string;
  tokenName: string;
  modelName: string;
  promptTokens: number;
  completionTokens: number;
  useTimeSeconds: number;
  isStream: boolean;
  channelId: number;
  group: string;
  content: string;
  other: Record<string, unknown>;
};

/** One request's charge as journaled and written: against a lease, with its usage log. */
export type Settlement = {
  seq: number;
  leaseId: number;
  userId: number;
  tokenId: number;
  limited: boolean;
  charge: number;
  /**
   * What the call cost beyond `charge` because the payer had no more (decision 009): not
   * charged, counted on the user and the channel. Absent when the whole cost was charged.
   */
  shortfall?: number;
  channelId: number;
  /** Unix seconds of the settle (the log's time, also when replayed after a crash). */
  at: number;
  log?: ConsumeLog;
};

export type LeasePayer = { userId: number; tokenId: number; limited: boolean };
export type TakeResult = { ok: true; leaseId: number; granted: number } | { ok: false; short: "user" | "token" };

/**
 * Moves up to `want` (at least `min`) of the payer's free balance — `quota - leased` of the user
 * and, for a limited token, `remain_quota - leased` of the token — into this node's lease.
 * Both or neither: the grant is the smaller free amount, and nothing moves below `min`.
 */
export async function takeLease(nodeId: string, payer: LeasePayer, want: number, min: number): Promise<TakeResult> {
  const db = await getDb();
  const result = await retryOnDeadlock(() =>
    sql<{ id: number | null; granted: number | null; user_free: number | null }>`/* prepared:lease_take */
      with cl as (
        select id from quota_leases
        where node_id = ${nodeId}::text and user_id = ${payer.userId}::int and token_id = ${payer.tokenId}::int for update
      ), cu as (
        -- The payer's lease row (when it exists) is locked first: the scalar subquery runs before the user's row is read.
        select quota - leased as free from users where id = ${payer.userId} and (select count(*) from cl) >= 0 for update
      ), ct as (
        select remain_quota - leased as free from tokens where id = ${payer.tokenId} and ${payer.limited}::boolean for update
      ), g as (
        select least(${want}::bigint, coalesce((select free from cu), -1),
          case when ${payer.limited}::boolean then coalesce((select free from ct), -1) else ${want}::bigint end) as amount
      ), ok as (
        select amount from g where amount >= ${min}::bigint and amount > 0
      ), u as (
        update users set leased = leased + (select amount from ok) where id = ${payer.userId} and exists (select 1 from ok) returning id
      ), t as (
        update tokens set leased = leased + (select amount from ok)
        where id = ${payer.tokenId} and ${payer.limited}::boolean and exists (select 1 from u) returning id
      ), q as (
        insert into quota_leases (node_id, user_id, token_id, token_limited, amount)
        select ${nodeId}::text, ${payer.userId}::int, ${payer.tokenId}::int, ${payer.limited}::boolean, amount from ok
        on conflict (node_id, user_id, token_id) do update set amount = quota_leases.amount + excluded.amount
        returning id
      )
      select (select id from q) as id, (select amount from ok) as granted, (select free from cu) as user_free`.execute(
      db,
    ),
  );
  const row = result.rows[0];
  if (row?.id == null || row.granted == null)
    return { ok: false, short: Number(row?.user_free ?? -1) < Math.max(min, 1) ? "user" : "token" };
  return { ok: true, leaseId: Number(row.id), granted: Number(row.granted) };
}

/** Gives what a lease still holds back to its payer's free balance. Returns that amount. */
export async function returnLease(leaseId: number): Promise<number> {
  const db = await getDb();
  const result = await retryOnDeadlock(() =>
    sql<{ amount: number | null }>`/* prepared:lease_return */
      with q as (
        delete from quota_leases where id = ${leaseId} returning user_id, token_id, token_limited, greatest(amount, 0) as amount
      ), u as (
        update users set leased = greatest(leased - (select amount from q), 0) where id = (select user_id from q) returning id
      ), t as (
        update tokens set leased = greatest(leased - (select amount from q), 0)
        where id = (select token_id from q) and (select token_limited from q) and exists (select 1 from u) returning id
      )
      select (select amount from q) as amount`.execute(db),
  );
  return Number(result.rows[0]?.amount ?? 0);
}

/** Gives `amount` of a lease (its unheld part) back to the payer's free balance; the lease stays. */
export async function trimLease(leaseId: number, amount: number): Promise<void> {
  const db = await getDb();
  await retryOnDeadlock(() =>
    sql`/* prepared:lease_trim */
      with q as (
        update quota_leases set amount = amount - ${amount}::bigint where id = ${leaseId} returning user_id, token_id, token_limited
      ), u as (
        update users set leased = greatest(leased - ${amount}::bigint, 0) where id = (select user_id from q) returning id
      ), t as (
        update tokens set leased = greatest(leased - ${amount}::bigint, 0)
        where id = (select token_id from q) and (select token_limited from q) and exists (select 1 from u) returning id
      )
      select (select count(*) from q) as trimmed`.execute(db),
  );
}

export type FlushResult = { applied: boolean; missingLeases: Set<number>; exhaustedTokens: Set<number> };

/**
 * Writes a run of journaled settlements (consecutive sequence numbers of one node) in one
 * statement: each lease shrinks by its charges, balances drop by them (never below zero),
 * counters rise, usage logs are inserted, and the node's applied sequence moves to the end of
 * the run — all or nothing. The gate on the applied sequence makes it idempotent: a run that
 * was already written (a replay, or a retry after a lost commit reply) applies nothing.
 *
 * The run travels as one JSON array of the settlements as journaled (`lines`, when the caller
 * has their journal lines, is reused as is): one parameter PostgreSQL unpacks itself, instead of
 * eighteen arrays escaped element by element in JavaScript.
 *
 * A charge whose lease is gone (returned as an orphan while this node could not prove it was
 * alive) is taken from the balance directly.
 */
export async function writeSettlements(nodeId: string, items: Settlement[], lines?: string[]): Promise<FlushResult> {
  const db = await getDb();
  const minSeq = items[0]!.seq;
  const maxSeq = items[items.length - 1]!.seq;
  const json = `[${(lines ?? items.map((item) => JSON.stringify(item))).join(",")}]`;
  const result = await retryOnDeadlock(() =>
    sql<{ applied: number; leases: number[] | null; exhausted: number[] | null }>`/* prepared:lease_settle_json */
      with gate as (
        update billing_journals set applied_seq = ${maxSeq}::bigint where node_id = ${nodeId}::text and applied_seq < ${minSeq}::bigint returning 1
      ), input as (
        select s."leaseId" as lease_id, s."userId" as user_id, s."tokenId" as token_id, s.limited, s.charge, greatest(coalesce(s.shortfall, 0), 0) as shortfall,
          s."channelId" as channel_id, s.at,
          s.log is not null as has_log, coalesce(f.content, '') as content, coalesce(f.username, '') as username,
          coalesce(f."tokenName", '') as token_name, coalesce(f."modelName", '') as model_name,
          coalesce(f."promptTokens", 0) as prompt_tokens, coalesce(f."completionTokens", 0) as completion_tokens,
          coalesce(f."useTimeSeconds", 0) as use_time, coalesce(f."isStream", false) as is_stream,
          coalesce(f."group", '') as grp, coalesce(f.other::text, '{}') as other
        from json_to_recordset(${json}::json) as s("leaseId" bigint, "userId" int, "tokenId" int, limited boolean, charge bigint, shortfall bigint, "channelId" int, at bigint, log json)
        -- The log's fields in one pass over its JSON (json_to_record), not one parse of it per ->> (decision 039).
        left join lateral json_to_record(s.log) as f(content text, username text, "tokenName" text, "modelName" text,
          "promptTokens" int, "completionTokens" int, "useTimeSeconds" int, "isStream" boolean, "group" text, other json) on true
        where exists (select 1 from gate)
      ), l as (
        update quota_leases q set amount = q.amount - s.charged
        from (select lease_id, sum(charge) as charged from input group by lease_id) s
        where q.id = s.lease_id returning q.id
      ), j as (
        select i.*, i.lease_id in (select id from l) as covered from input i
      ), u as (
        update users set
          quota = greatest(users.quota - s.charged, 0),
          leased = greatest(users.leased - s.covered, 0),
          used_quota = users.used_quota + s.charged,
          request_count = users.request_count + s.n,
          shortfall_quota = users.shortfall_quota + s.shortfall
        from (select user_id, sum(charge) as charged, sum(case when covered then charge else 0 end) as covered, count(*) as n, sum(shortfall) as shortfall from j group by user_id) s
        where users.id = s.user_id returning users.id
      ), t as (
        update tokens set
          remain_quota = case when s.limited then greatest(tokens.remain_quota - s.charged, 0) else tokens.remain_quota end,
          leased = case when s.limited then greatest(tokens.leased - s.covered, 0) else tokens.leased end,
          used_quota = tokens.used_quota + s.charged,
          accessed_time = greatest(tokens.accessed_time, s.at),
          status = case when s.limited and not tokens.unlimited_quota and tokens.status = ${TOKEN_STATUS.enabled} and tokens.remain_quota - s.charged <= 0
            then ${TOKEN_STATUS.exhausted} else tokens.status end
        from (select token_id, bool_or(limited) as limited, sum(charge) as charged, sum(case when covered then charge else 0 end) as covered, max(at) as at
              from j where token_id > 0 group by token_id) s
        where tokens.id = s.token_id and exists (select 1 from u) returning tokens.id, tokens.status
      ), c as (
        update channels set used_quota = channels.used_quota + s.charged, shortfall_quota = channels.shortfall_quota + s.shortfall
        from (select channel_id, sum(charge) as charged, sum(shortfall) as shortfall from j group by channel_id) s
        where channels.id = s.channel_id returning channels.id
      ), lg as (
        insert into logs (created_at, type, content, user_id, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", other)
        select at, ${sql.lit(LOG_TYPE.consume)}, content, user_id, username, token_name, token_id, model_name, charge, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, grp, other
        from j where has_log
      )
      select (select count(*)::int from gate) as applied, (select array_agg(id) from l) as leases,
        (select array_agg(id) from t where status = ${TOKEN_STATUS.exhausted}) as exhausted`.execute(db),
  );
  const row = result.rows[0];
  const applied = Number(row?.applied ?? 0) > 0;
  const found = new Set((row?.leases ?? []).map(Number));
  return {
    applied,
    missingLeases: new Set(applied ? items.map((i) => i.leaseId).filter((id) => !found.has(id)) : []),
    exhaustedTokens: new Set((row?.exhausted ?? []).map(Number)),
  };
}

/** The node's journal row: created before its first settlement is journaled. */
export async function registerJournal(nodeId: string): Promise<void> {
  const db = await getDb();
  await db
    .insertInto("billing_journals")
    .values({ node_id: nodeId, applied_seq: 0 })
    .onConflict((oc) => oc.column("node_id").doNothing())
    .execute();
}

export async function appliedSeqOf(nodeId: string): Promise<number | undefined> {
  const db = await getDb();
  const row = await db
    .selectFrom("billing_journals")
    .select("applied_seq")
    .where("node_id", "=", nodeId)
    .executeTakeFirst();
  return row ? Number(row.applied_seq) : undefined;
}

export async function forgetJournal(nodeId: string): Promise<void> {
  const db = await getDb();
  await db.deleteFrom("billing_journals").where("node_id", "=", nodeId).execute();
}
