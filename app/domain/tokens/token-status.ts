import { TOKEN_STATUS } from "./token-constants";

type StatusFacts = { status: number; expired_time: number; unlimited_quota: boolean; remain_quota: number };

/**
 * The status a token has right now, as the relay would judge it. The stored status only turns
 * 3 or 4 when the relay or billing writes it, so an enabled token whose expiry has passed (or
 * whose limited quota ran out) would otherwise read 已启用 while every call is refused. Only an
 * enabled token is re-read: a disabled one stays disabled, and 3/4 are already what they say.
 * Expiry is compared the way the relay compares it (refused once the second is past).
 */
export function effectiveTokenStatus(token: StatusFacts, nowSeconds: number): number {
  if (token.status !== TOKEN_STATUS.enabled) return token.status;
  if (token.expired_time !== -1 && token.expired_time < nowSeconds) return TOKEN_STATUS.expired;
  if (!token.unlimited_quota && token.remain_quota <= 0) return TOKEN_STATUS.exhausted;
  return token.status;
}

/** The product's status tags; an enabled token with model limits says so. */
export function tokenStatusLabel(
  status: number,
  modelLimitsEnabled: boolean,
): { label: string; tone: "green" | "gray" | "yellow" | "red" } {
  switch (status) {
    case TOKEN_STATUS.enabled:
      return { label: modelLimitsEnabled ? "已启用：限制模型" : "已启用", tone: "green" };
    case TOKEN_STATUS.disabled:
      return { label: "已禁用", tone: "red" };
    case TOKEN_STATUS.expired:
      return { label: "已过期", tone: "yellow" };
    case TOKEN_STATUS.exhausted:
      return { label: "已耗尽", tone: "gray" };
    default:
      return { label: "未知状态", tone: "gray" };
  }
}
