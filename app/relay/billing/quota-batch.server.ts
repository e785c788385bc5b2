import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import type { ConsumeLog, Payer, Reservation, ReserveResult } from "./quota.server";
import { NODE_ID } from "./node-liveness.server";

/**
 * The batched forms of reserve and settle used by group commit (quota.server): one statement for
 * a whole batch, with the per-payer amounts summed first so each user and token row is updated
 * once. They keep the single-request guarantees: the `check (quota >= 0)` constraints fail the
 * whole statement if any payer would go negative (the caller then answers each request on its
 * own), and a reservation is closed by exactly one settle or refund.
 */

type ReserveItem = { payer: Payer; amount: number; requestId: string };

export async function reserveMany(items: ReserveItem[]): Promise<ReserveResult[]> {
  const db = await getDb();
  const result = await sql<{ id: number; request_id: string }>`/* prepared:reserve_many */
    with input as (
      select * from unnest(${items.map((i) => i.payer.userId)}::int[], ${items.map((i) => i.payer.tokenId)}::int[],
        ${items.map((i) => !i.payer.tokenUnlimited)}::boolean[], ${items.map((i) => i.amount)}::bigint[], ${items.map((i) => i.requestId)}::text[])
        with ordinality as i(user_id, token_id, limited, amount, request_id, ord)
    ), u as (
      update users set quota = users.quota - s.total
      from (select user_id, sum(amount) as total from input group by user_id) s
      where users.id = s.user_id returning users.id
    ), t as (
      update tokens set remain_quota = tokens.remain_quota - s.total
      from (select token_id, sum(amount) as total from input where limited group by token_id) s
      where tokens.id = s.token_id and not tokens.unlimited_quota returning tokens.id
    )
    insert into quota_reservations (request_id, node_id, user_id, token_id, token_unlimited, amount)
    select request_id, ${NODE_ID}::text, user_id, token_id, not limited, amount from input
    where user_id in (select id from u) order by ord
    returning id, request_id`.execute(db);
  const ids = new Map(result.rows.map((row) => [row.request_id, Number(row.id)]));
  return items.map((item) => {
    const id = ids.get(item.requestId);
    return id === undefined ? { ok: false, reason: "user" } : { ok: true, reservation: { ...item.payer, id, amount: item.amount } };
  });
}

type SettleItem = { reservation: Reservation; quota: number; channelId: number; log: ConsumeLog | undefined };

/** Settles charges that fit their reservations (the caller routes the others to the single path). */
export async function settleMany(items: SettleItem[]): Promise<({ charge: number; exhausted: boolean } | undefined)[]> {
  const db = await getDb();
  const now = Math.floor(Date.now() / 1000);
  const col = <T,>(pick: (item: SettleItem) => T) => items.map(pick);
  const result = await sql<{ closed: number[] | null; exhausted: number[] | null }>`/* prepared:settle_many */
    with input as (
      select * from unnest(
        ${col((i) => i.reservation.id)}::bigint[], ${col((i) => i.quota)}::bigint[], ${col((i) => i.channelId)}::int[], ${col((i) => i.log !== undefined)}::boolean[],
        ${col((i) => i.log?.content ?? "")}::text[], ${col((i) => i.log?.username ?? "")}::text[], ${col((i) => i.log?.tokenName ?? "")}::text[],
        ${col((i) => i.log?.modelName ?? "")}::text[], ${col((i) => i.log?.promptTokens ?? 0)}::int[], ${col((i) => i.log?.completionTokens ?? 0)}::int[],
        ${col((i) => i.log?.useTimeSeconds ?? 0)}::int[], ${col((i) => i.log?.isStream ?? false)}::boolean[], ${col((i) => i.log?.group ?? "")}::text[],
        ${col((i) => JSON.stringify(i.log?.other ?? {}))}::text[]
      ) as i(res_id, charge, channel_id, has_log, content, username, token_name, model_name, prompt_tokens, completion_tokens, use_time, is_stream, grp, other)
    ), r as (
      delete from quota_reservations q using input i where q.id = i.res_id
      returning q.id, q.user_id, q.token_id, q.token_unlimited, q.amount
    ), j as (
      select i.*, r.user_id, r.token_id, r.token_unlimited, r.amount from input i join r on r.id = i.res_id
    ), u as (
      update users set quota = users.quota + s.back, used_quota = users.used_quota + s.charged, request_count = users.request_count + s.n
      from (select user_id, sum(amount - charge) as back, sum(charge) as charged, count(*) as n from j group by user_id) s
      where users.id = s.user_id returning users.id
    ), t as (
      update tokens set
        remain_quota = case when tokens.unlimited_quota then tokens.remain_quota else tokens.remain_quota + s.back end,
        used_quota = tokens.used_quota + s.charged,
        accessed_time = ${now},
        status = case when not tokens.unlimited_quota and tokens.status = ${TOKEN_STATUS.enabled} and tokens.remain_quota + s.back <= 0 then ${TOKEN_STATUS.exhausted} else tokens.status end
      from (select token_id, sum(case when token_unlimited then 0 else amount - charge end) as back, sum(charge) as charged from j group by token_id) s
      where tokens.id = s.token_id returning tokens.id, tokens.status
    ), c as (
      update channels set used_quota = channels.used_quota + s.charged
      from (select channel_id, sum(charge) as charged from j group by channel_id) s
      where channels.id = s.channel_id returning channels.id
    ), l as (
      insert into logs (created_at, type, content, user_id, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", other)
      select ${now}::bigint, 2, content, user_id, username, token_name, token_id, model_name, charge, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, grp, other
      from j where has_log
      returning id
    )
    select (select array_agg(id) from r) as closed, (select array_agg(id) from t where status = ${TOKEN_STATUS.exhausted}) as exhausted`.execute(db);
  const row = result.rows[0];
  const closed = new Set((row?.closed ?? []).map(Number));
  const exhausted = new Set((row?.exhausted ?? []).map(Number));
  return items.map((item) => (closed.has(item.reservation.id) ? { charge: item.quota, exhausted: exhausted.has(item.reservation.tokenId) } : undefined));
}
