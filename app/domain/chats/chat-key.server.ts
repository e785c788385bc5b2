import { getDb } from "~/utils/db.server";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import { openTokenKey } from "~/domain/tokens/token-keys.server";

/**
 * The key a chat page opens with: the user's newest enabled token that can still be used (not
 * expired, not exhausted), as `sk-…`. The reference takes the first enabled one of the newest
 * 100 tokens, expired or not; asking the database for a usable one finds it wherever it is and
 * never hands a chat client a key the relay would refuse.
 */
export async function firstUsableTokenKey(userId: number): Promise<string | undefined> {
  const db = await getDb();
  const now = Math.floor(Date.now() / 1000);
  const row = await db
    .selectFrom("tokens")
    .select("key_encrypted")
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .where("status", "=", TOKEN_STATUS.enabled)
    .where((eb) => eb.or([eb("expired_time", "=", -1), eb("expired_time", ">", now)]))
    .where((eb) => eb.or([eb("unlimited_quota", "=", true), eb("remain_quota", ">", 0)]))
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? `sk-${openTokenKey(row.key_encrypted)}` : undefined;
}
