import { sql } from "kysely";
import type { User } from "../../../db/schema";
import { LOG_TYPE } from "~/domain/logs/logs.server";
import { options } from "~/domain/options/store.server";
import { USER_CHANGED_CHANNEL } from "~/domain/users/manage.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import { renderQuota } from "~/utils/format";
import { allowRequest, releaseRequest } from "~/utils/rate-limit.server";
import { publish } from "~/utils/redis.server";
import { redemptionKeyHash } from "./redemption-keys.server";
import { REDEMPTION_STATUS, redemptionMessages as m } from "./redemption-constants";

/**
 * Guessing keys is limited per user and per client address: at most this many failed (or still
 * running) attempts in a window. With 128 random bits a guess cannot succeed anyway; the limit
 * keeps anyone from hammering the redeem lookup (the reference slept 0–3 s per call instead).
 */
export const REDEEM_FAILURES_PER_USER = 10;
export const REDEEM_FAILURES_PER_ADDRESS = 30;
export const REDEEM_FAILURE_WINDOW_SECONDS = 600;

export type RedeemResult =
  | { ok: true; quota: number; balance: number }
  | { ok: false; message: string; reason: "empty" | "limited" | "invalid" | "used" | "disabled" };

class UserGone extends Error {}

/**
 * Spends the code and credits the user exactly once, however many requests race with it: the
 * UPDATE that flips the code from unused to used is the only gate (a concurrent second one
 * re-checks `status` after the first commits and matches nothing), and the credit and its
 * type-1 log are written in the same transaction, so a code is never spent without its credit.
 */
async function spend(user: User, keyHash: string): Promise<{ quota: number; balance: number } | undefined> {
  const db = await getDb();
  const at = Math.floor(Date.now() / 1000);
  return db.transaction().execute(async (trx) => {
    const code = await trx
      .updateTable("redemptions")
      .set({ status: REDEMPTION_STATUS.used, used_user_id: user.id, redeemed_time: at })
      .where("key_hash", "=", keyHash)
      .where("status", "=", REDEMPTION_STATUS.unused)
      .where("deleted_at", "is", null)
      .returning(["id", "quota"])
      .executeTakeFirst();
    if (!code) return undefined;
    const credited = await trx
      .updateTable("users")
      .set({ quota: sql`quota + ${code.quota}::bigint` })
      .where("id", "=", user.id)
      .where("deleted_at", "is", null)
      .returning(["quota", "username"])
      .executeTakeFirst();
    // A user deleted meanwhile: throwing rolls the code back to unused.
    if (!credited) throw new UserGone();
    await trx
      .insertInto("logs")
      .values({
        created_at: at,
        type: LOG_TYPE.topup,
        content: `通过兑换码充值 ${renderQuota(code.quota, options.bool("DisplayInCurrencyEnabled"), options.float("QuotaPerUnit"), 6)}，兑换码ID ${code.id}`,
        user_id: user.id,
        username: credited.username,
        quota: code.quota,
        other: JSON.stringify({ redemption_id: code.id }),
      })
      .execute();
    return { quota: code.quota, balance: credited.quota };
  });
}

/** Why a key could not be spent: it names no live code, or its code is disabled or used. */
async function refusalFor(keyHash: string): Promise<RedeemResult & { ok: false }> {
  const db = await getDb();
  const row = await db.selectFrom("redemptions").select("status").where("key_hash", "=", keyHash).where("deleted_at", "is", null).executeTakeFirst();
  if (row?.status === REDEMPTION_STATUS.used) return { ok: false, message: m.keyUsed, reason: "used" };
  if (row?.status === REDEMPTION_STATUS.disabled) return { ok: false, message: m.keyDisabled, reason: "disabled" };
  return { ok: false, message: m.keyInvalid, reason: "invalid" };
}

/** `POST /api/user/topup` and the wallet's redeem form. `address` is the caller's client address. */
export async function redeemCode(user: User, presentedKey: string, address: string): Promise<RedeemResult> {
  if (!presentedKey.trim()) return { ok: false, message: m.keyRequired, reason: "empty" };
  const userBucket = ["redeem-user", String(user.id)] as const;
  const addressBucket = ["redeem-address", address] as const;
  // Each attempt holds a slot of both budgets while it runs; only unknown keys keep theirs.
  if (!(await allowRequest(...userBucket, REDEEM_FAILURES_PER_USER, REDEEM_FAILURE_WINDOW_SECONDS))) {
    await releaseRequest(...userBucket);
    return { ok: false, message: m.tooManyFailures, reason: "limited" };
  }
  if (!(await allowRequest(...addressBucket, REDEEM_FAILURES_PER_ADDRESS, REDEEM_FAILURE_WINDOW_SECONDS))) {
    await Promise.all([releaseRequest(...userBucket), releaseRequest(...addressBucket)]);
    return { ok: false, message: m.tooManyFailures, reason: "limited" };
  }
  let result: RedeemResult;
  try {
    const keyHash = redemptionKeyHash(presentedKey);
    const spent = await spend(user, keyHash);
    result = spent ? { ok: true, ...spent } : await refusalFor(keyHash);
  } catch (error) {
    await Promise.all([releaseRequest(...userBucket), releaseRequest(...addressBucket)]);
    if (error instanceof UserGone) return { ok: false, message: messages.userDeregistered, reason: "invalid" };
    throw error;
  }
  if (result.ok || result.reason !== "invalid") await Promise.all([releaseRequest(...userBucket), releaseRequest(...addressBucket)]);
  // Relay nodes drop their cached balance and quota slices for this user (decision 006).
  if (result.ok) await publish(USER_CHANGED_CHANNEL, String(user.id));
  return result;
}
