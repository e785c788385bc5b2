import { sql, type Transaction } from "kysely";
import type { DB } from "../../../db/schema";
import { LOG_TYPE } from "~/domain/logs/log-types";

/** What a failed task paid, to give back. */
export type TaskCharge = { userId: number; tokenId: number; channelId: number; quota: number; modelName: string };

/**
 * Gives a failed task's charge back to the user and to the token that paid it, and takes it off
 * the used counters (the reference refunds only the user's balance), with a system log row.
 * Runs inside the transaction that moved the task to its final state, and only when that move
 * changed a row: the caller's conditional UPDATE is what makes the refund happen exactly once.
 * Locks the user's row before the token's, the order every billing statement keeps.
 * Returns the token's key hash (for the caller to drop cached copies after the commit).
 */
export async function refundTaskCharge(
  trx: Transaction<DB>,
  charge: TaskCharge,
  content: string,
): Promise<string | undefined> {
  if (charge.quota <= 0) return undefined;
  const user = await trx
    .updateTable("users")
    .set({
      quota: sql`quota + ${charge.quota}::bigint`,
      used_quota: sql`greatest(used_quota - ${charge.quota}::bigint, 0)`,
    })
    .where("id", "=", charge.userId)
    .returning(["id", "username"])
    .executeTakeFirst();
  if (!user) return undefined;
  const token = charge.tokenId
    ? await trx
        .updateTable("tokens")
        .set({
          remain_quota: sql`remain_quota + ${charge.quota}::bigint`,
          used_quota: sql`greatest(used_quota - ${charge.quota}::bigint, 0)`,
        })
        .where("id", "=", charge.tokenId)
        .returning(["name", "key_hash"])
        .executeTakeFirst()
    : undefined;
  if (charge.channelId) {
    await trx
      .updateTable("channels")
      .set({ used_quota: sql`greatest(used_quota - ${charge.quota}::bigint, 0)` })
      .where("id", "=", charge.channelId)
      .execute();
  }
  await trx
    .insertInto("logs")
    .values({
      created_at: Math.floor(Date.now() / 1000),
      type: LOG_TYPE.system,
      content,
      user_id: user.id,
      username: user.username,
      token_name: token?.name ?? "",
      token_id: charge.tokenId,
      model_name: charge.modelName,
      channel_id: charge.channelId,
      quota: charge.quota,
      other: JSON.stringify({ refund: true }),
    })
    .execute();
  return token?.key_hash;
}
