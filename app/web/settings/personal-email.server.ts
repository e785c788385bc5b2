import { data } from "@remix-run/node";
import { requestLocale } from "~/i18n/locale";
import type { User } from "../../../db/schema";
import { TURNSTILE_FIELD, turnstileRefusal, turnstileWidgetSettings } from "~/domain/auth/turnstile.server";
import { bindEmail, sendVerificationCode } from "~/domain/email/email-flows.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { allowCriticalRequest } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";
import type { SettingsActionResult } from "./tabs";

/** The email-binding card's part of the personal tab (docs/product.md, Settings: binding an email). */
export function loadEmailBinding(user: User) {
  return { email: user.email, turnstile: turnstileWidgetSettings() };
}

/** What the card gets back: the address typed stays in the field, whatever happened. */
export type EmailCardResult = SettingsActionResult & { email?: string };

export const EMAIL_CARD_INTENTS = ["email-code", "email-bind"] as const;

function reply(result: EmailCardResult, status = 200) {
  return data<EmailCardResult>(result, { status });
}

/** `email-code` mails a code to the address typed (30 s cooldown); `email-bind` binds it with the code. */
export async function personalEmailAction(user: User, intent: string, form: FormData, request: Request) {
  const email = String(form.get("email") ?? "")
    .trim()
    .slice(0, 254);
  const code = String(form.get("code") ?? "")
    .trim()
    .slice(0, 32);
  const ip = clientIp(request);
  if (!email) return reply({ intent, email, fieldErrors: { email: [messages.emailBindEmailRequired] } }, 400);
  if (!(await allowCriticalRequest(ip))) return reply({ intent, email, error: messages.tooManyRequests }, 429);
  if (intent === "email-code") {
    const turnstile = await turnstileRefusal(String(form.get(TURNSTILE_FIELD) ?? ""), ip);
    if (turnstile) return reply({ intent, email, error: turnstile }, 400);
    const sent = await sendVerificationCode(email, requestLocale(request));
    if (!sent.ok) return reply({ intent, email, fieldErrors: { email: [sent.message] } }, 400);
    return reply({ intent, email, success: messages.verificationCodeSent });
  }
  if (!code) return reply({ intent, email, fieldErrors: { code: [messages.emailBindCodeRequired] } }, 400);
  const bound = await bindEmail(user, email, code);
  if (!bound.ok) return reply({ intent, email, error: bound.message }, 400);
  return redirectWithFlash("/setting", { type: "success", message: messages.emailBound });
}
