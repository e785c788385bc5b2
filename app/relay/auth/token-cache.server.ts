import type { Token } from "../../../db/schema";
import { TOKEN_CHANGED_CHANNEL } from "~/domain/tokens/tokens.server";
import { USER_CHANGED_CHANNEL } from "~/domain/users/manage.server";
import { getDb } from "~/utils/db.server";
import { onResubscribed, subscribe } from "~/utils/redis.server";
import { parseAllowList, type AllowRange } from "~/domain/tokens/ip-allow-list";

/**
 * Token lookups served from memory: the relay's hot path reads no database row in the steady
 * state. An entry is dropped when its token or user changes on any node (pub/sub), and expires
 * after a minute as a backstop.
 */
export type CachedToken = {
  token: Token;
  allowRanges: AllowRange[];
  modelLimits: Set<string>;
  user: { id: number; username: string; role: number; status: number; group: string; deleted: boolean };
  loadedAt: number;
};

const TTL_MS = 60_000;
const byHash = new Map<string, CachedToken>();
let subscribed: Promise<void> | undefined;

function ensureSubscribed(): Promise<void> {
  subscribed ??= (async () => {
    await subscribe(TOKEN_CHANGED_CHANNEL, (hash) => byHash.delete(hash));
    await subscribe(USER_CHANGED_CHANNEL, (userId) => {
      for (const [hash, entry] of byHash) if (String(entry.user.id) === userId) byHash.delete(hash);
    });
    // Edits on other nodes while Redis was away were missed: start over from the database.
    onResubscribed(() => byHash.clear());
  })();
  return subscribed;
}

let listening = false;

/** The entry when it is in memory and fresh (and invalidation is already listening): no promise, no await. */
export function cachedToken(keyHash: string): CachedToken | undefined {
  if (!listening) return undefined;
  const cached = byHash.get(keyHash);
  return cached && Date.now() - cached.loadedAt < TTL_MS ? cached : undefined;
}

export async function lookupToken(keyHash: string): Promise<CachedToken | undefined> {
  await ensureSubscribed();
  listening = true;
  const cached = byHash.get(keyHash);
  if (cached && Date.now() - cached.loadedAt < TTL_MS) return cached;
  const db = await getDb();
  const row = await db
    .selectFrom("tokens")
    .innerJoin("users", "users.id", "tokens.user_id")
    .selectAll("tokens")
    .select([
      "users.username as u_username",
      "users.role as u_role",
      "users.status as u_status",
      "users.group as u_group",
      "users.deleted_at as u_deleted_at",
    ])
    .where("tokens.key_hash", "=", keyHash)
    .where("tokens.deleted_at", "is", null)
    .executeTakeFirst();
  if (!row) {
    byHash.delete(keyHash);
    return undefined;
  }
  const { u_username, u_role, u_status, u_group, u_deleted_at, ...token } = row;
  const entry: CachedToken = {
    token,
    allowRanges: parseAllowList(token.allow_ips).ranges,
    modelLimits: new Set(
      token.model_limits
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean),
    ),
    user: {
      id: token.user_id,
      username: u_username,
      role: u_role,
      status: u_status,
      group: u_group,
      deleted: u_deleted_at !== null,
    },
    loadedAt: Date.now(),
  };
  byHash.set(keyHash, entry);
  return entry;
}

/** Keeps the cached balance close to the database after a settle on this node. */
export function adjustCachedTokenQuota(keyHash: string, charged: number): void {
  const entry = byHash.get(keyHash);
  if (entry && !entry.token.unlimited_quota)
    entry.token = { ...entry.token, remain_quota: Math.max(0, entry.token.remain_quota - charged) };
}
