import { sql } from "kysely";
import type { Redemption, User } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { generateRedemptionKey, redemptionKeyHash, redemptionKeyHint } from "./redemption-keys.server";
import {
  MAX_REDEMPTION_COUNT,
  REDEMPTION_STATUS,
  redemptionMessages as m,
  redemptionNameFits,
  redemptionQuotaFits,
} from "./redemption-constants";
import type { Result } from "~/utils/result";

const now = () => Math.floor(Date.now() / 1000);

/** The reference's Redemption JSON; `key` is the masked hint — the key itself exists only at creation. */
export function toRedemptionJson(row: Redemption) {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key_hint,
    status: row.status,
    name: row.name,
    quota: row.quota,
    created_time: row.created_time,
    redeemed_time: row.redeemed_time,
    used_user_id: row.used_user_id,
    DeletedAt: null,
  };
}

export type RedemptionJson = ReturnType<typeof toRedemptionJson>;

function checkNameAndQuota(name: string, quota: number): string | undefined {
  if (!redemptionNameFits(name)) return m.nameLength;
  if (!redemptionQuotaFits(quota)) return m.quotaRange;
  return undefined;
}

function liveRedemptions() {
  return getDb().then((db) => db.selectFrom("redemptions").selectAll().where("deleted_at", "is", null));
}

export async function listRedemptions(page: number, size: number): Promise<{ items: Redemption[]; total: number }> {
  const db = await getDb();
  const base = db.selectFrom("redemptions").where("deleted_at", "is", null);
  const [items, total] = await Promise.all([
    base
      .selectAll()
      .orderBy("id", "desc")
      .limit(size)
      .offset(page * size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

/** The product's "search by id or name": a keyword that is an id matches that row too; names match by substring. */
export async function searchRedemptions(keyword: string): Promise<Redemption[]> {
  const text = keyword.trim();
  let query = await liveRedemptions();
  if (text) {
    const id = /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : undefined;
    const byName = sql<boolean>`position(${text.toLowerCase()} in lower(name)) > 0`;
    query = query.where((eb) => (id === undefined ? byName : eb.or([eb("id", "=", id), byName])));
  }
  return query.orderBy("id", "desc").limit(100).execute();
}

export async function getRedemption(id: number): Promise<Redemption | undefined> {
  return (await liveRedemptions()).where("id", "=", id).executeTakeFirst();
}

/**
 * Makes `count` codes of one name and quota in one statement and returns their keys: the only
 * moment they exist outside the database's hashes (decision 020).
 */
export async function createRedemptions(
  admin: User,
  input: { name: string; quota: number; count: number },
): Promise<Result<string[]>> {
  const name = input.name.trim();
  const problem = checkNameAndQuota(name, input.quota);
  if (problem) return { ok: false, message: problem };
  if (!Number.isInteger(input.count) || input.count < 1) return { ok: false, message: m.countTooSmall };
  if (input.count > MAX_REDEMPTION_COUNT) return { ok: false, message: m.countTooLarge };
  const keys = Array.from({ length: input.count }, generateRedemptionKey);
  const db = await getDb();
  await db
    .insertInto("redemptions")
    .values(
      keys.map((key) => ({
        user_id: admin.id,
        key_hash: redemptionKeyHash(key),
        key_hint: redemptionKeyHint(key),
        name,
        quota: input.quota,
        status: REDEMPTION_STATUS.unused,
        created_time: now(),
      })),
    )
    .execute();
  return { ok: true, value: keys };
}

/** Name and quota change only while the code is unused (docs/product.md, Redemption codes), checked in the UPDATE itself. */
export async function updateRedemption(
  id: number,
  input: { name: string; quota: number },
): Promise<Result<Redemption>> {
  const name = input.name.trim();
  const problem = checkNameAndQuota(name, input.quota);
  if (problem) return { ok: false, message: problem };
  const db = await getDb();
  const row = await db
    .updateTable("redemptions")
    .set({ name, quota: input.quota })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("status", "=", REDEMPTION_STATUS.unused)
    .returningAll()
    .executeTakeFirst();
  if (row) return { ok: true, value: row };
  const existing = await getRedemption(id);
  if (!existing) return { ok: false, message: m.notFound };
  return { ok: false, message: existing.status === REDEMPTION_STATUS.used ? m.usedCannotChange : m.editOnlyUnused };
}

/**
 * Enable (1) or disable (2). A used code keeps its status: the UPDATE skips it, so a toggle racing
 * a redeem cannot turn a spent code back into a spendable one.
 */
export async function setRedemptionStatus(id: number, status: number): Promise<Result<Redemption>> {
  if (status !== REDEMPTION_STATUS.unused && status !== REDEMPTION_STATUS.disabled)
    return { ok: false, message: m.statusInvalid };
  const db = await getDb();
  const row = await db
    .updateTable("redemptions")
    .set({ status })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("status", "<>", REDEMPTION_STATUS.used)
    .returningAll()
    .executeTakeFirst();
  if (row) return { ok: true, value: row };
  return { ok: false, message: (await getRedemption(id)) ? m.usedCannotChange : m.notFound };
}

/** Soft delete, as the reference: a used code's row stays as the record of who redeemed it. */
export async function deleteRedemption(id: number): Promise<Result> {
  const db = await getDb();
  const result = await db
    .updateTable("redemptions")
    .set({ deleted_at: new Date() })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? { ok: true, value: undefined } : { ok: false, message: m.notFound };
}

/** Usernames of the redeemers on a page of codes (deleted accounts keep their id only). */
export async function redeemerNames(rows: Pick<Redemption, "used_user_id">[]): Promise<Record<number, string>> {
  const ids = [...new Set(rows.map((r) => r.used_user_id).filter((id) => id > 0))];
  if (ids.length === 0) return {};
  const db = await getDb();
  const users = await db.selectFrom("users").select(["id", "username"]).where("id", "in", ids).execute();
  return Object.fromEntries(users.map((u) => [u.id, u.username]));
}

/**
 * What "copy" puts on the clipboard for a code. The key itself cannot be copied after creation
 * (only its hash is kept), so a line that identifies the code: id, name, masked key, status.
 */
export function describeRedemption(
  row: Pick<Redemption, "id" | "name" | "key_hint" | "status">,
  statusLabel: string,
): string {
  return `#${row.id} ${row.name} ${row.key_hint} ${statusLabel}`;
}
