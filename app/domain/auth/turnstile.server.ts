import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { env } from "~/utils/env.server";

/**
 * Cloudflare Turnstile, checked on the server for every protected action (sign-in, registration,
 * verification mail, reset mail) while TurnstileCheckEnabled is on. The reference checks once and
 * then skips the check for the rest of the session: one solved challenge
 * bought unlimited attempts. Cloudflare accepts a token once anyway, so each action brings its own.
 */
const VERIFY_TIMEOUT_MS = 10_000;

/** The form field the widget fills in (the /api routes take the same token as `?turnstile=`). */
export const TURNSTILE_FIELD = "cf-turnstile-response";

export function isTurnstileEnabled(): boolean {
  return options.bool("TurnstileCheckEnabled");
}

/** What a page needs to draw the widget; the secret never leaves the server. */
export function turnstileWidgetSettings(): { enabled: boolean; siteKey: string } {
  const enabled = isTurnstileEnabled();
  return { enabled, siteKey: enabled ? options.string("TurnstileSiteKey") : "" };
}

async function verifyAtCloudflare(token: string, remoteIp: string): Promise<boolean> {
  const body = new URLSearchParams({ secret: options.string("TurnstileSecretKey"), response: token });
  if (remoteIp) body.set("remoteip", remoteIp);
  try {
    const res = await fetch(env.TURNSTILE_VERIFY_URL, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      redirect: "error",
    });
    if (!res.ok) {
      console.error(`[turnstile] siteverify answered HTTP ${res.status}`);
      return false;
    }
    const answer = (await res.json()) as { success?: unknown; "error-codes"?: unknown };
    if (answer.success === true) return true;
    console.warn("[turnstile] token refused:", JSON.stringify(answer["error-codes"] ?? []));
    return false;
  } catch (error) {
    // Fail closed: an unreachable verifier must not turn the check off.
    console.error("[turnstile] siteverify unreachable:", (error as Error).message);
    return false;
  }
}

/** undefined when the action may go on; else the product's refusal message. */
export async function turnstileRefusal(
  token: string | null | undefined,
  remoteIp: string,
): Promise<string | undefined> {
  if (!isTurnstileEnabled()) return undefined;
  const value = (token ?? "").trim();
  if (!value || value.length > 2048) return messages.turnstileWaiting;
  return (await verifyAtCloudflare(value, remoteIp)) ? undefined : messages.turnstileWaiting;
}
