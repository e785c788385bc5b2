import { randomInt } from "node:crypto";
import { getRedis, isRedisEnabled, redisNamespace } from "~/utils/redis.server";

/**
 * Email verification codes, kept where every node can see them (Redis when configured) and
 * valid for 10 minutes; a code is consumed by its first successful use.
 */
const TTL_SECONDS = 600;
const local = new Map<string, { code: string; expiresAt: number }>();

function keyOf(purpose: string, email: string) {
  return `${isRedisEnabled() ? redisNamespace() : ""}verify:${purpose}:${email.trim().toLowerCase()}`;
}

export async function issueVerificationCode(purpose: string, email: string): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const key = keyOf(purpose, email);
  if (isRedisEnabled()) await getRedis().set(key, code, "EX", TTL_SECONDS);
  else local.set(key, { code, expiresAt: Date.now() + TTL_SECONDS * 1000 });
  return code;
}

export async function consumeVerificationCode(purpose: string, email: string, code: string): Promise<boolean> {
  const key = keyOf(purpose, email);
  if (isRedisEnabled()) {
    const stored = await getRedis().get(key);
    if (!stored || stored !== code.trim()) return false;
    await getRedis().del(key);
    return true;
  }
  const entry = local.get(key);
  if (!entry || entry.expiresAt < Date.now() || entry.code !== code.trim()) return false;
  local.delete(key);
  return true;
}
