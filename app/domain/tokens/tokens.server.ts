import { sql } from "kysely";
import type { Token, User } from "../../../db/schema";
import { canUseGroup } from "~/domain/groups/groups.server";
import { getDb } from "~/utils/db.server";
import { publish } from "~/utils/redis.server";
import { randomAlphanumeric } from "~/utils/secrets.server";
import { normaliseAllowList, parseAllowList } from "./ip-allow-list";
import { generateTokenKey, KEY_HINT_VISIBLE, openTokenKey, parseKeySearch, sealTokenKey } from "./token-keys.server";
import { EXPIRY_INVALID, isExpiryInRange, TOKEN_NAME_TOO_LONG, tokenNameFits } from "./token-constants";
import { effectiveTokenStatus } from "./token-status";
import { MAX_BATCH_TOKENS, TOKEN_STATUS, type TokenFields, type TokenUpdateFields } from "./token-form";
import type { Result } from "~/utils/result";

/** The relay's token cache listens here; the message is the token's key hash. */
export const TOKEN_CHANGED_CHANNEL = "token-changed";

const now = () => Math.floor(Date.now() / 1000);
const BATCH_SUFFIX_LENGTH = 6;

/**
 * The reference's Token JSON; `key` is masked here — the full key only via revealTokenKey (or
 * toTokenApiJson under EXPOSE_FULL_KEYS). `status` is the one in force now (expired / exhausted
 * as soon as true), not the stored column.
 */
export function toTokenJson(token: Token) {
  return {
    id: token.id,
    user_id: token.user_id,
    key: token.key_hint,
    status: effectiveTokenStatus(token, now()),
    name: token.name,
    created_time: token.created_time,
    accessed_time: token.accessed_time,
    expired_time: token.expired_time,
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota,
    model_limits_enabled: token.model_limits_enabled,
    model_limits: token.model_limits,
    allow_ips: token.allow_ips,
    used_quota: token.used_quota,
    group: token.group,
    rpm_limit: token.rpm_limit,
    tpm_limit: token.tpm_limit,
    DeletedAt: null,
  };
}

export type TokenJson = ReturnType<typeof toTokenJson>;

function checkFields(user: User, fields: TokenUpdateFields): string | undefined {
  if (!tokenNameFits(fields.name)) return TOKEN_NAME_TOO_LONG;
  const { invalid } = parseAllowList(fields.allow_ips);
  if (invalid.length) return `IP 白名单格式错误：${invalid[0]}`;
  if (!canUseGroup(user, fields.group)) return `无权使用分组 ${fields.group}`;
  // Both surfaces meet here: the console's typed time can land past year 9999 in a western zone.
  if (!isExpiryInRange(fields.expired_time)) return EXPIRY_INVALID;
  if (fields.expired_time !== -1 && fields.expired_time <= now()) return "过期时间不能早于当前时间";
  return undefined;
}

function normaliseModelLimits(text: string): string {
  return [
    ...new Set(
      text
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ].join(",");
}

function columnsOf(fields: TokenUpdateFields) {
  return {
    // Undefined only on an edit that left a limit out: kept as stored (see TokenUpdateFields).
    ...(fields.rpm_limit === undefined ? {} : { rpm_limit: fields.rpm_limit }),
    ...(fields.tpm_limit === undefined ? {} : { tpm_limit: fields.tpm_limit }),
    expired_time: fields.expired_time,
    remain_quota: fields.remain_quota,
    unlimited_quota: fields.unlimited_quota,
    model_limits_enabled: fields.model_limits_enabled,
    model_limits: normaliseModelLimits(fields.model_limits),
    allow_ips: normaliseAllowList(fields.allow_ips),
    group: fields.group,
  };
}

/**
 * Creates `count` tokens in one transaction. With a count above 1 each name gets a 6-character
 * random suffix, as the product's batch create does. Returns the new keys (shown once to the caller).
 */
export async function createTokens(
  user: User,
  fields: TokenFields,
  count = 1,
): Promise<Result<{ id: number; key: string }[]>> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_BATCH_TOKENS)
    return { ok: false, message: `创建数量必须在 1 到 ${MAX_BATCH_TOKENS} 之间` };
  const problem = checkFields(user, fields);
  if (problem) return { ok: false, message: problem };
  // The batch suffix counts too: a stored name over the limit could never be saved by an edit.
  if (count > 1 && !tokenNameFits(`${fields.name}-${"x".repeat(BATCH_SUFFIX_LENGTH)}`))
    return { ok: false, message: `${TOKEN_NAME_TOO_LONG}（批量创建会在名称后追加 ${BATCH_SUFFIX_LENGTH + 1} 个字符）` };
  const db = await getDb();
  const rows = Array.from({ length: count }, () => {
    const key = generateTokenKey();
    return {
      key,
      row: {
        user_id: user.id,
        ...sealTokenKey(key),
        name: count > 1 ? `${fields.name}-${randomAlphanumeric(BATCH_SUFFIX_LENGTH)}` : fields.name,
        status: TOKEN_STATUS.enabled,
        created_time: now(),
        accessed_time: now(),
        used_quota: 0,
        deleted_at: null,
        ...columnsOf(fields),
      },
    };
  });
  const inserted = await db
    .insertInto("tokens")
    .values(rows.map((r) => r.row))
    .returning("id")
    .execute();
  return { ok: true, value: inserted.map((r, i) => ({ id: r.id, key: rows[i]!.key })) };
}

function ownTokens(userId: number) {
  return getDb().then((db) =>
    db.selectFrom("tokens").selectAll().where("user_id", "=", userId).where("deleted_at", "is", null),
  );
}

export async function listTokens(
  userId: number,
  page: number,
  size: number,
): Promise<{ items: Token[]; total: number }> {
  const db = await getDb();
  const base = db.selectFrom("tokens").where("user_id", "=", userId).where("deleted_at", "is", null);
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

/**
 * Search by name (substring) and/or by key: a full key (by its hash), or what the list shows of
 * one (the hint's visible ends, with or without `sk-` and the mask), since the list never shows
 * more and searching by what is on screen must find it.
 */
export async function searchTokens(userId: number, keyword: string, key: string): Promise<Token[]> {
  let query = await ownTokens(userId);
  if (keyword.trim()) query = query.where(sql<boolean>`position(${keyword.trim().toLowerCase()} in lower(name)) > 0`);
  if (key.trim()) query = query.where(keyMatches(key));
  return query.orderBy("id", "desc").limit(100).execute();
}

function keyMatches(typed: string) {
  const { hash, fragment } = parseKeySearch(typed);
  const byHash = sql<boolean>`key_hash = ${hash}`;
  if (!fragment) return byHash;
  const head = sql`left(key_hint, ${sql.lit(KEY_HINT_VISIBLE)})`;
  const tail = sql`right(key_hint, ${sql.lit(KEY_HINT_VISIBLE)})`;
  if ("text" in fragment) {
    if (fragment.atStart) return sql<boolean>`(${byHash} or starts_with(${head}, ${fragment.text}))`;
    return sql<boolean>`(${byHash} or position(${fragment.text} in ${head}) > 0 or position(${fragment.text} in ${tail}) > 0)`;
  }
  // Typed up to the mask: the head's end (its whole when `sk-` pins it); after it, the tail's start.
  const ends = [sql`starts_with(${tail}, ${fragment.tail})`];
  if (fragment.head) {
    ends.push(
      fragment.atStart
        ? sql`${head} = ${fragment.head}`
        : sql`right(${head}, ${sql.lit(fragment.head.length)}) = ${fragment.head}`,
    );
  }
  return sql<boolean>`(${byHash} or (${sql.join(ends, sql` and `)}))`;
}

export async function getToken(userId: number, id: number): Promise<Token | undefined> {
  return (await ownTokens(userId)).where("id", "=", id).executeTakeFirst();
}

export async function revealTokenKey(userId: number, id: number): Promise<string | undefined> {
  const token = await getToken(userId, id);
  return token ? openTokenKey(token.key_encrypted) : undefined;
}

async function announce(token: Pick<Token, "key_hash">) {
  await publish(TOKEN_CHANGED_CHANNEL, token.key_hash);
}

/** Enabling is refused for an expired or exhausted token, with the reference's messages. */
function enableRefusal(token: Pick<Token, "expired_time" | "remain_quota" | "unlimited_quota">): string | undefined {
  if (token.expired_time !== -1 && token.expired_time <= now())
    return "令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期";
  if (!token.unlimited_quota && token.remain_quota <= 0)
    return "令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度";
  return undefined;
}

export async function setTokenStatus(userId: number, id: number, status: number): Promise<Result<Token>> {
  if (status !== TOKEN_STATUS.enabled && status !== TOKEN_STATUS.disabled)
    return { ok: false, message: "无效的令牌状态" };
  const token = await getToken(userId, id);
  if (!token) return { ok: false, message: "令牌不存在" };
  if (status === TOKEN_STATUS.enabled) {
    const refusal = enableRefusal(token);
    if (refusal) return { ok: false, message: refusal };
  }
  const db = await getDb();
  const updated = await db
    .updateTable("tokens")
    .set({ status })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await announce(updated);
  return { ok: true, value: updated };
}

/**
 * Full edit. An expired or exhausted token whose new expiry or quota makes it usable again goes
 * back to enabled (the reference leaves it stuck in 3/4 until toggled by hand).
 */
export async function updateToken(user: User, id: number, fields: TokenUpdateFields): Promise<Result<Token>> {
  const token = await getToken(user.id, id);
  if (!token) return { ok: false, message: "令牌不存在" };
  const problem = checkFields(user, fields);
  if (problem) return { ok: false, message: problem };
  const columns = columnsOf(fields);
  let status = token.status;
  const revivable = status === TOKEN_STATUS.expired || status === TOKEN_STATUS.exhausted;
  if (revivable && !enableRefusal(columns)) status = TOKEN_STATUS.enabled;
  const db = await getDb();
  const updated = await db
    .updateTable("tokens")
    .set({ ...columns, name: fields.name, status })
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await announce(updated);
  return { ok: true, value: updated };
}

export async function deleteToken(userId: number, id: number): Promise<Result> {
  const db = await getDb();
  const deleted = await db
    .updateTable("tokens")
    .set({ deleted_at: new Date(), status: TOKEN_STATUS.disabled })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .returning("key_hash")
    .executeTakeFirst();
  if (!deleted) return { ok: false, message: "令牌不存在" };
  await announce(deleted);
  return { ok: true, value: undefined };
}
