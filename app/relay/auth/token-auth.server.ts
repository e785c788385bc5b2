import { isIpAllowed } from "~/domain/tokens/ip-allow-list";
import { normaliseTokenKey, tokenKeyHash } from "~/domain/tokens/token-keys.server";
import { TOKEN_STATUS } from "~/domain/tokens/token-constants";
import { options } from "~/domain/options/store.server";
import { ROLE_ADMIN, USER_STATUS_BANNED } from "~/domain/users/roles";
import { localFailure, type RelayFailure } from "../relay-error";
import { cachedToken, lookupToken, type CachedToken } from "./token-cache.server";

export type TokenContext = CachedToken & { keyHash: string; pinnedChannelId?: number };

type PresentedKey = { keyHash: string; pin: string | undefined };

// Authorization header → its key's lookup hash: a client sends the same header on every call,
// and hashing it each time was ~1.5% of the relay's CPU. Bounded; a hash reveals no key.
const presentedKeys = new Map<string, PresentedKey | null>();

function presentedKey(authorization: string): PresentedKey | null {
  let known = presentedKeys.get(authorization);
  if (known === undefined) {
    const [key, pin] = normaliseTokenKey(authorization).split("-");
    known = key ? { keyHash: tokenKeyHash(key), pin } : null;
    if (presentedKeys.size >= 10_000) presentedKeys.clear();
    presentedKeys.set(authorization, known);
  }
  return known;
}

/**
 * `Authorization: Bearer sk-<key>` (or `sk-<key>-<channelId>` to pin a channel, admins only).
 * Every refusal is a value with the reference's message and status.
 */
export function authenticateToken(
  authorization: string | undefined,
  ip: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): TokenContext | RelayFailure | Promise<TokenContext | RelayFailure> {
  const presented = authorization ? presentedKey(authorization) : null;
  if (!presented) {
    if (!authorization || !normaliseTokenKey(authorization)) return localFailure(401, "未提供令牌", "missing_token");
    return localFailure(401, "无效的令牌", "invalid_token");
  }
  // Served from memory in the steady state; the database only on a miss or an expired entry.
  const cached = cachedToken(presented.keyHash);
  if (cached) return admitToken(cached, presented, ip, nowSeconds);
  return lookupToken(presented.keyHash).then((entry) =>
    entry ? admitToken(entry, presented, ip, nowSeconds) : localFailure(401, "无效的令牌", "invalid_token"),
  );
}

/** The reference's refusals, in its order, for a token that exists. */
function admitToken(
  cached: CachedToken,
  { keyHash, pin }: PresentedKey,
  ip: string,
  nowSeconds: number,
): TokenContext | RelayFailure {
  const { token, user } = cached;
  if (user.deleted || user.status === USER_STATUS_BANNED) return localFailure(403, "用户已被封禁", "user_banned");
  if (token.status === TOKEN_STATUS.exhausted) return localFailure(401, "该令牌额度已用尽", "token_exhausted");
  if (token.status === TOKEN_STATUS.expired || (token.expired_time !== -1 && token.expired_time < nowSeconds))
    return localFailure(401, "该令牌已过期", "token_expired");
  if (token.status !== TOKEN_STATUS.enabled) return localFailure(401, "该令牌状态不可用", "token_disabled");
  if (!token.unlimited_quota && token.remain_quota <= 0)
    return localFailure(401, "该令牌额度已用尽", "token_exhausted");
  if (!isIpAllowed(cached.allowRanges, ip))
    return localFailure(403, "您的 IP 不在令牌允许访问的列表中", "ip_not_allowed");
  let pinnedChannelId: number | undefined;
  if (pin) {
    if (user.role < ROLE_ADMIN) return localFailure(403, "普通用户不支持指定渠道", "channel_pin_forbidden");
    pinnedChannelId = Number(pin);
    if (!Number.isSafeInteger(pinnedChannelId) || pinnedChannelId <= 0)
      return localFailure(400, "无效的渠道 ID", "invalid_channel_id");
  }
  // Written out field by field: a spread here took a slow generic copy (the profile put a few µs a
  // call on this line, more than parsing the request body), and every call makes one.
  return {
    token,
    user,
    allowRanges: cached.allowRanges,
    modelLimits: cached.modelLimits,
    loadedAt: cached.loadedAt,
    keyHash,
    pinnedChannelId,
  };
}

export function isFailure(value: unknown): value is RelayFailure {
  return typeof value === "object" && value !== null && "status" in value && "message" in value && !("token" in value);
}

/** The token's model limits, when enabled. */
export function checkModelAllowed(ctx: TokenContext, model: string): RelayFailure | undefined {
  if (ctx.token.model_limits_enabled && !ctx.modelLimits.has(model))
    return localFailure(403, `该令牌无权访问模型 ${model}`, "model_not_allowed");
  return undefined;
}

/** The group a request bills and routes under: the token's group when set and still allowed. */
export function resolveGroup(ctx: TokenContext): string | RelayFailure {
  const tokenGroup = ctx.token.group;
  if (!tokenGroup || tokenGroup === ctx.user.group) return ctx.user.group;
  const usable = options.json<Record<string, unknown>>("UserUsableGroups") ?? {};
  const ratios = options.json<Record<string, unknown>>("GroupRatio") ?? {};
  if (!(tokenGroup in usable)) return localFailure(403, `令牌分组 ${tokenGroup} 已被禁用`, "group_forbidden");
  if (!(tokenGroup in ratios)) return localFailure(403, `分组 ${tokenGroup} 已被弃用`, "group_deprecated");
  return tokenGroup;
}
