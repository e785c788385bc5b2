import { turnstileRefusal } from "~/domain/auth/turnstile.server";
import { hasNul } from "~/utils/edge-input";
import { allowCriticalRequest, TOO_MANY_REQUESTS_MESSAGE } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";
import { ApiError } from "./api.server";

/** Longest query value the email routes read (an address is ≤ 254, a token 32). */
const MAX_QUERY_VALUE = 512;

/** A trimmed query value; NUL or an absurd length is a 400, as any other malformed input. */
export function queryText(request: Request, name: string): string {
  const value = new URL(request.url).searchParams.get(name) ?? "";
  if (value.length > MAX_QUERY_VALUE || hasNul(value)) throw new ApiError(`无效的参数：${name}`, 400);
  return value.trim();
}

/**
 * The reference's CriticalRateLimit (per IP) and, when enabled, a Turnstile token from
 * `?turnstile=` — checked on every call, never remembered for the session.
 */
export async function requireCriticalAndTurnstile(request: Request, options: { turnstile: boolean }): Promise<void> {
  const ip = clientIp(request);
  if (!(await allowCriticalRequest(ip))) throw new ApiError(TOO_MANY_REQUESTS_MESSAGE, 429);
  if (!options.turnstile) return;
  const refusal = await turnstileRefusal(queryText(request, "turnstile"), ip);
  if (refusal) throw new ApiError(refusal);
}
