import type { User } from "../../../db/schema";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { logQuotaText } from "~/domain/logs/quota-text.server";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import { renderQuota } from "~/utils/format";
import type { Result } from "~/utils/result";
import { randomAlphanumeric } from "~/utils/secrets.server";

/**
 * Invites (decision 015): a user's invite code, and moving invite earnings
 * (`aff_quota`) into the spendable balance.
 */

/** After a transfer: the user's balance and invite earnings as they now are. */
export type TransferOutcome = Result<{ quota: number; affQuota: number }>;

const UNIQUE_VIOLATION = "23505";

/**
 * The user's invite code, made on first ask when the account has none (the reference's
 * `GET /api/user/aff`). Codes are 4 characters as in the reference; a clash with another
 * account's code (the unique index says so) draws again, and two first asks at once both get the
 * code that was stored.
 */
export async function affCodeOf(user: Pick<User, "id" | "aff_code">): Promise<string> {
  if (user.aff_code) return user.aff_code;
  const db = await getDb();
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      const set = await db
        .updateTable("users")
        .set({ aff_code: randomAlphanumeric(4) })
        .where("id", "=", user.id)
        .where((eb) => eb.or([eb("aff_code", "is", null), eb("aff_code", "=", "")]))
        .returning("aff_code")
        .executeTakeFirst();
      if (set?.aff_code) return set.aff_code;
      const stored = await db.selectFrom("users").select("aff_code").where("id", "=", user.id).executeTakeFirst();
      if (stored?.aff_code) return stored.aff_code;
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    }
  }
  throw new Error(`no free invite code for user ${user.id}`);
}

/** The smallest transfer: one quota unit, worded as the reference's console words it. */
export function affTransferMinimum(): { quota: number; message: string } {
  const quotaPerUnit = options.float("QuotaPerUnit");
  const quota = Math.ceil(quotaPerUnit);
  const amount = renderQuota(quotaPerUnit, options.bool("DisplayInCurrencyEnabled"), quotaPerUnit);
  return { quota, message: messages.affTransferMin.replace("{amount}", amount) };
}

/**
 * Moves `quota` of the user's invite earnings into their balance. One conditional UPDATE does
 * the move (`aff_quota >= quota` is checked by the database on the row as it is when locked),
 * so transfers racing each other or a new invite reward never move more than there is; the log
 * row is written in the same transaction, so a transfer is never without its record. The
 * reference reads the row `FOR UPDATE`, compares in Go and saves the whole struct; one statement
 * is the same guarantee with one round trip.
 */
export async function transferAffQuota(user: Pick<User, "id">, quota: number): Promise<TransferOutcome> {
  const minimum = affTransferMinimum();
  if (!Number.isSafeInteger(quota) || quota < minimum.quota) return { ok: false, message: minimum.message };
  const db = await getDb();
  const moved = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("users")
      .set((eb) => ({ aff_quota: eb("aff_quota", "-", quota), quota: eb("quota", "+", quota) }))
      .where("id", "=", user.id)
      .where("deleted_at", "is", null)
      .where("aff_quota", ">=", quota)
      .returning(["id", "username", "quota", "aff_quota"])
      .executeTakeFirst();
    if (!row) return undefined;
    await trx
      .insertInto("logs")
      .values({
        created_at: Math.floor(Date.now() / 1000),
        type: LOG_TYPE.system,
        content: `邀请额度划转到余额 ${logQuotaText(quota)}`,
        user_id: row.id,
        username: row.username,
        quota: 0,
        other: JSON.stringify({ aff_transfer: quota, aff_quota_after: row.aff_quota, quota_after: row.quota }),
      })
      .execute();
    return row;
  });
  if (!moved) return { ok: false, message: messages.affTransferInsufficient };
  return { ok: true, value: { quota: Number(moved.quota), affQuota: Number(moved.aff_quota) } };
}
