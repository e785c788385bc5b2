import { sql, type Transaction } from "kysely";
import type { DB } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { publish } from "~/utils/redis.server";
import { TOKEN_CHANGED_CHANNEL } from "~/domain/tokens/tokens.server";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import { lockKeyOf, NODE_ID } from "./node-liveness.server";
import { groupCommit } from "./group-commit";
import { reserveMany, settleMany } from "./quota-batch.server";
import { retryOnDeadlock } from "./retry-on-deadlock";

/**
 * Money on the relay path. Every change is a conditional statement inside one transaction, so
 * however many requests race, neither a user's quota nor a token's remaining quota goes below
 * zero, and no unit is lost or counted twice:
 *  reserve — take the estimate from user and token (both or neither) and record it;
 *  settle  — swap the reservation for the real charge, bump counters and write the usage log;
 *  refund  — give the whole reservation back (failed call, zero usage, crash recovery).
 */

export type Payer = { userId: number; tokenId: number; tokenUnlimited: boolean; tokenKeyHash: string };
export type Reservation = Payer & { id: number; amount: number };

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; reason: "user" | "token" };
type ReserveRequest = { payer: Payer; amount: number; requestId: string };

/** Takes `amount` from user and token (both or neither) before the upstream call; group-committed. */
export function reserveQuota(payer: Payer, amount: number, requestId: string): Promise<ReserveResult> {
  return reserveQueue({ payer, amount, requestId });
}

const reserveQueue = groupCommit<ReserveRequest, ReserveResult>(async (items) => {
  if (items.length === 1) return [await reserveOne(items[0]!)];
  try {
    return await reserveMany(items);
  } catch {
    // Someone in the batch was short (a check constraint failed the whole statement) or the
    // batch hit a deadlock: each request then gets its own exact answer.
    return Promise.all(items.map(reserveOne));
  }
});

/**
 * One statement, so one round trip and the shortest possible lock on the user's row. The
 * `check (quota >= 0)` constraints on users and tokens make an overdraft fail the whole
 * statement (both updates and the reservation row roll back together), and the violated
 * constraint says which side was short.
 */
async function reserveOne({ payer, amount, requestId }: ReserveRequest): Promise<ReserveResult> {
  const db = await getDb();
  try {
    const result = await retryOnDeadlock(() => sql<{ id: number }>`/* prepared:reserve_one */
      with u as (
        update users set quota = quota - ${amount} where id = ${payer.userId} returning id
      ), t as (
        update tokens set remain_quota = remain_quota - ${amount}
        where id = ${payer.tokenId} and not unlimited_quota and ${!payer.tokenUnlimited}::boolean
        returning id
      )
      insert into quota_reservations (request_id, node_id, user_id, token_id, token_unlimited, amount)
      select ${requestId}::text, ${NODE_ID}::text, ${payer.userId}::int, ${payer.tokenId}::int, ${payer.tokenUnlimited}::boolean, ${amount}::bigint
      where exists (select 1 from u)
      returning id`.execute(db));
    const row = result.rows[0];
    if (!row) return { ok: false, reason: "user" };
    return { ok: true, reservation: { ...payer, id: Number(row.id), amount } };
  } catch (error) {
    const constraint = (error as { constraint?: string; code?: string }).constraint ?? "";
    if ((error as { code?: string }).code === "23514") return { ok: false, reason: constraint.startsWith("tokens") ? "token" : "user" };
    throw error;
  }
}

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

/**
 * Replaces the reservation with the real charge. A charge above the reservation takes only
 * what user and token still hold (never below zero); the shortfall is noted in the log.
 * Returns the quota actually charged, or undefined when the reservation was already closed.
 */
export async function settleQuota(reservation: Reservation, quota: number, channelId: number, log: ConsumeLog | undefined): Promise<number | undefined> {
  const charged = await settleQueue({ reservation, quota, channelId, log });
  if (charged?.exhausted) await publish(TOKEN_CHANGED_CHANNEL, reservation.tokenKeyHash);
  return charged?.charge;
}

type SettleRequest = { reservation: Reservation; quota: number; channelId: number; log: ConsumeLog | undefined };
type Settled = { charge: number; exhausted: boolean } | undefined;

function settleOne({ reservation, quota, channelId, log }: SettleRequest): Promise<Settled> {
  return retryOnDeadlock(() =>
    quota <= reservation.amount ? settleWithinReservation(reservation, quota, channelId, log) : settleBeyondReservation(reservation, quota, channelId, log),
  );
}

const settleQueue = groupCommit<SettleRequest, Settled>(async (items) => {
  const within = items.filter((item) => item.quota <= item.reservation.amount);
  if (within.length < 2) return Promise.all(items.map(settleOne));
  const beyond = items.filter((item) => item.quota > item.reservation.amount);
  const [batched, single] = await Promise.all([settleMany(within).catch(() => Promise.all(within.map(settleOne))), Promise.all(beyond.map(settleOne))]);
  const results = new Map<SettleRequest, Settled>();
  within.forEach((item, i) => results.set(item, batched[i]));
  beyond.forEach((item, i) => results.set(item, single[i]));
  return items.map((item) => results.get(item));
});

function logValues(reservation: Reservation, charge: number, channelId: number, log: ConsumeLog, other: Record<string, unknown>) {
  return {
    created_at: Math.floor(Date.now() / 1000),
    type: 2,
    content: log.content,
    user_id: reservation.userId,
    username: log.username,
    token_name: log.tokenName,
    token_id: reservation.tokenId,
    model_name: log.modelName,
    quota: charge,
    prompt_tokens: log.promptTokens,
    completion_tokens: log.completionTokens,
    use_time: log.useTimeSeconds,
    is_stream: log.isStream,
    channel_id: channelId,
    group: log.group,
    other: JSON.stringify(other),
  };
}

/**
 * The common case (the charge fits the reservation): everything — close the reservation, give
 * back the difference, bump the counters, write the usage log — in one statement.
 */
async function settleWithinReservation(reservation: Reservation, charge: number, channelId: number, log: ConsumeLog | undefined) {
  const db = await getDb();
  const now = Math.floor(Date.now() / 1000);
  const entry = log ? logValues(reservation, charge, channelId, log, log.other) : undefined;
  // The token's row is locked after the user's (t reads u), the order every billing statement
  // keeps, so a settle and a reserve of the same payer cannot deadlock each other.
  const result = await sql<{ amount: number | null; token_status: number | null }>`/* prepared:settle_one */
    with r as (
      delete from quota_reservations where id = ${reservation.id} returning amount
    ), u as (
      update users set quota = quota + (select amount from r) - ${charge}::bigint, used_quota = used_quota + ${charge}::bigint, request_count = request_count + 1
      where id = ${reservation.userId} and exists (select 1 from r) returning id
    ), t as (
      update tokens set
        remain_quota = case when unlimited_quota then remain_quota else remain_quota + (select amount from r) - ${charge} end,
        used_quota = used_quota + ${charge},
        accessed_time = ${now},
        status = case when not unlimited_quota and status = ${TOKEN_STATUS.enabled} and remain_quota + (select amount from r) - ${charge} <= 0 then ${TOKEN_STATUS.exhausted} else status end
      where id = ${reservation.tokenId} and exists (select 1 from u) returning status
    ), c as (
      update channels set used_quota = used_quota + ${charge} where id = ${channelId} and exists (select 1 from r) returning id
    ), l as (
      insert into logs (created_at, type, content, user_id, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", other)
      select ${entry?.created_at ?? 0}::bigint, 2, ${entry?.content ?? ""}::text, ${reservation.userId}::int, ${entry?.username ?? ""}::text, ${entry?.token_name ?? ""}::text,
        ${reservation.tokenId}::int, ${entry?.model_name ?? ""}::text, ${charge}::bigint, ${entry?.prompt_tokens ?? 0}::int, ${entry?.completion_tokens ?? 0}::int,
        ${entry?.use_time ?? 0}::int, ${entry?.is_stream ?? false}::boolean, ${channelId}::int, ${entry?.group ?? ""}::text, ${entry?.other ?? "{}"}::text
      where ${entry !== undefined}::boolean and exists (select 1 from r)
      returning id
    )
    select (select amount from r) as amount, (select status from t) as token_status`.execute(db);
  const row = result.rows[0];
  if (!row || row.amount === null) return undefined;
  return { charge, exhausted: Number(row.token_status) === TOKEN_STATUS.exhausted };
}

/**
 * A charge above the reservation (a reply longer than estimated): inside a transaction, take
 * only what user and token still hold so neither goes below zero; the shortfall is logged.
 */
async function settleBeyondReservation(reservation: Reservation, quota: number, channelId: number, log: ConsumeLog | undefined) {
  const db = await getDb();
  let exhausted = false;
  const charged = await db.transaction().execute(async (trx) => {
    const open = await trx.deleteFrom("quota_reservations").where("id", "=", reservation.id).returning("amount").executeTakeFirst();
    if (!open) return undefined;
    const user = await trx.selectFrom("users").select("quota").where("id", "=", reservation.userId).forUpdate().executeTakeFirstOrThrow();
    let available = user.quota;
    if (!reservation.tokenUnlimited) {
      const token = await trx.selectFrom("tokens").select("remain_quota").where("id", "=", reservation.tokenId).forUpdate().executeTakeFirstOrThrow();
      available = Math.min(available, token.remain_quota);
    }
    const charge = open.amount + Math.min(quota - open.amount, Math.max(0, available));
    const giveBack = open.amount - charge;
    await trx
      .updateTable("users")
      .set({ quota: sql`quota + ${giveBack}`, used_quota: sql`used_quota + ${charge}`, request_count: sql`request_count + 1` })
      .where("id", "=", reservation.userId)
      .execute();
    if (reservation.tokenId) {
      const token = await trx
        .updateTable("tokens")
        .set({
          remain_quota: reservation.tokenUnlimited ? sql`remain_quota` : sql`remain_quota + ${giveBack}`,
          used_quota: sql`used_quota + ${charge}`,
          accessed_time: Math.floor(Date.now() / 1000),
          status: sql`case when not unlimited_quota and remain_quota + ${reservation.tokenUnlimited ? 0 : giveBack} <= 0 and status = ${TOKEN_STATUS.enabled} then ${TOKEN_STATUS.exhausted} else status end`,
        })
        .where("id", "=", reservation.tokenId)
        .returning("status")
        .executeTakeFirst();
      exhausted = token?.status === TOKEN_STATUS.exhausted;
    }
    if (channelId) await trx.updateTable("channels").set({ used_quota: sql`used_quota + ${charge}` }).where("id", "=", channelId).execute();
    if (log) {
      const other = charge < quota ? { ...log.other, shortfall: quota - charge } : log.other;
      await trx.insertInto("logs").values(logValues(reservation, charge, channelId, log, other)).execute();
    }
    return charge;
  });
  return charged === undefined ? undefined : { charge: charged, exhausted };
}

export async function refundQuota(reservation: Pick<Reservation, "id">): Promise<void> {
  const db = await getDb();
  await retryOnDeadlock(() =>
    db.transaction().execute(async (trx) => {
      const open = await trx.deleteFrom("quota_reservations").where("id", "=", reservation.id).returningAll().executeTakeFirst();
      if (open) await giveBack(trx, [open]);
    }),
  );
}

type OpenReservation = { user_id: number; token_id: number; token_unlimited: boolean; amount: number };

/** Returns closed reservations' quota to their users and (limited) tokens, summed per payer. */
async function giveBack(trx: Transaction<DB>, rows: OpenReservation[]): Promise<void> {
  const perUser = new Map<number, number>();
  const perToken = new Map<number, number>();
  for (const row of rows) {
    perUser.set(row.user_id, (perUser.get(row.user_id) ?? 0) + Number(row.amount));
    if (row.token_id && !row.token_unlimited) perToken.set(row.token_id, (perToken.get(row.token_id) ?? 0) + Number(row.amount));
  }
  // Sorted ids: concurrent refunds lock rows in one order and cannot deadlock.
  for (const [id, amount] of [...perUser].sort((a, b) => a[0] - b[0])) await trx.updateTable("users").set({ quota: sql`quota + ${amount}` }).where("id", "=", id).execute();
  for (const [id, amount] of [...perToken].sort((a, b) => a[0] - b[0])) await trx.updateTable("tokens").set({ remain_quota: sql`remain_quota + ${amount}` }).where("id", "=", id).execute();
}

/** Longer than any relay can run (RELAY_TIMEOUT, or a stream kept alive by its idle timer). */
export const STALE_RESERVATION_MS = 6 * 60 * 60 * 1000;

/**
 * Crash recovery: reservations whose process is gone (its liveness lock is free — see
 * node-liveness) belong to requests that can no longer finish, so their quota goes back to the
 * payer. Run at every start and by the periodic job, so a crashed node's holds come back within
 * minutes even if it never restarts. Anything older than the longest possible relay goes back
 * too, as a last net. Never touches a live process's in-flight reservations.
 */
export async function refundOrphanedReservations(): Promise<number> {
  const db = await getDb();
  const nodes = await db.selectFrom("quota_reservations").select("node_id").distinct().where("node_id", "<>", NODE_ID).execute();
  let refunded = 0;
  for (const { node_id } of nodes) {
    const key = lockKeyOf(node_id);
    refunded += await db.transaction().execute(async (trx) => {
      if (key !== undefined) {
        // Held for this transaction only, so the dead node's key is not kept locked afterwards.
        const probe = await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(${key.toString()}::bigint) as free`.execute(trx);
        if (!probe.rows[0]?.free) return 0;
      }
      const rows = await trx.deleteFrom("quota_reservations").where("node_id", "=", node_id).returningAll().execute();
      await giveBack(trx, rows);
      return rows.length;
    });
  }
  const cutoff = new Date(Date.now() - STALE_RESERVATION_MS);
  const stale = await db.selectFrom("quota_reservations").select("id").where("created_at", "<", cutoff).execute();
  for (const row of stale) await refundQuota(row);
  return refunded + stale.length;
}
