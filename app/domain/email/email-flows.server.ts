import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { User } from "../../../db/schema";
import { revokeUserSessions } from "~/domain/auth/sessions.server";
import {
  CODE_TTL_SECONDS,
  consumeVerificationCode,
  issueVerificationCode,
  newSixDigitCode,
  normalizeEmail,
  withdrawVerificationCode,
  type CodePurpose,
  type ConsumeResult,
} from "~/domain/auth/verification-codes.server";
import { effectiveServerAddress, effectiveSystemName } from "~/domain/options/store.server";
import { hashPassword } from "~/domain/users/passwords.server";
import { DEFAULT_LOCALE, type Locale } from "~/i18n/locale";
import { t } from "~/i18n/translate";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import { randomAlphanumeric } from "~/utils/secrets.server";
import { emailPolicyRefusal, isEmailTaken } from "./email-policy.server";
import { sendMail, type Mail } from "./mailer.server";
import type { Result } from "~/utils/result";
import { escapeHtml } from "./escape-html";

/**
 * The email sign-in flows (docs/product.md, Sign-in and accounts): a code for registration and binding, a reset link, the
 * reset itself, and binding an address to an account. A mail sent while answering a request is
 * written in that reader's language (docs/decisions/045); the refusals stay Chinese here and are
 * translated at the edge.
 */
export type Outcome = Result;

/** The reference's generated password length. */
const NEW_PASSWORD_LENGTH = 12;
const MINUTES = Math.round(CODE_TTL_SECONDS / 60);

function siteName(): string {
  return effectiveSystemName();
}

export function codeRefusalMessage(result: Exclude<ConsumeResult, "ok">): string {
  return result === "exhausted" ? messages.verificationCodeExhausted : messages.verificationCodeWrong;
}

/** Issues the code, sends it, and takes it back when the mail fails (so a retry need not wait). */
async function issueAndSend(purpose: CodePurpose, email: string, code: string, mail: Mail): Promise<Outcome> {
  const issued = await issueVerificationCode(purpose, email, code);
  if (!issued.ok) return { ok: false, message: messages.emailCooldown.replace("{n}", String(issued.waitSeconds)) };
  const sent = await sendMail(mail);
  if (!sent.ok) {
    await withdrawVerificationCode(purpose, email, code);
    return sent;
  }
  return { ok: true };
}

/** `GET /api/verification`: a 6-digit code for registration or binding, to an address no account holds. */
export async function sendVerificationCode(rawEmail: string, locale: Locale = DEFAULT_LOCALE): Promise<Outcome> {
  const email = normalizeEmail(rawEmail);
  const refusal = emailPolicyRefusal(email);
  if (refusal) return { ok: false, message: refusal };
  if (await isEmailTaken(email)) return { ok: false, message: messages.emailTaken };
  const code = newSixDigitCode();
  const site = siteName();
  return issueAndSend("email", email, code, {
    to: email,
    subject: t(locale, "{{site}} 邮箱验证", { site }),
    text: t(
      locale,
      "您好，您正在进行 {{site}} 邮箱验证。\n您的验证码为：{{code}}\n验证码 {{minutes}} 分钟内有效，如果不是本人操作，请忽略本邮件。",
      { site, code, minutes: MINUTES },
    ),
    html: t(
      locale,
      "<p>您好，您正在进行 {{site}} 邮箱验证。</p><p>您的验证码为：<strong>{{code}}</strong></p><p>验证码 {{minutes}} 分钟内有效，如果不是本人操作，请忽略本邮件。</p>",
      {
        site: escapeHtml(site),
        code,
        minutes: MINUTES,
      },
    ),
  });
}

/** `GET /api/reset_password`: a single-use link to the reset page, to a registered address. */
export async function sendPasswordResetMail(rawEmail: string, locale: Locale = DEFAULT_LOCALE): Promise<Outcome> {
  const email = normalizeEmail(rawEmail);
  if (!email) return { ok: false, message: messages.emailRequired };
  if (email.length > 254) return { ok: false, message: messages.emailInvalid };
  if (!(await isEmailTaken(email))) return { ok: false, message: messages.emailNotRegistered };
  const token = randomBytes(16).toString("hex");
  const link = `${effectiveServerAddress().replace(/\/+$/, "")}/user/reset?${new URLSearchParams({ email, token })}`;
  const site = siteName();
  return issueAndSend("reset", email, token, {
    to: email,
    subject: t(locale, "{{site}} 密码重置", { site }),
    text: t(
      locale,
      "您好，您正在进行 {{site}} 密码重置。\n请在浏览器中打开下面的链接完成重置：\n{{link}}\n重置链接 {{minutes}} 分钟内有效，只能使用一次；如果不是本人操作，请忽略本邮件。",
      { site, link, minutes: MINUTES },
    ),
    html: t(
      locale,
      '<p>您好，您正在进行 {{site}} 密码重置。</p><p>点击 <a href="{{link}}">此处</a> 进行密码重置，或将下面的链接复制到浏览器中打开：<br>{{link}}</p><p>重置链接 {{minutes}} 分钟内有效，只能使用一次；如果不是本人操作，请忽略本邮件。</p>',
      { site: escapeHtml(site), link: escapeHtml(link), minutes: MINUTES },
    ),
  });
}

/**
 * `POST /api/user/reset`: uses the link's token up and gives every live account on that address
 * a new random password (the reference's behaviour), signing all their sessions out: whoever
 * had a session with the old password must not keep it.
 */
export async function resetPasswordWithToken(rawEmail: string, token: string): Promise<Result<string>> {
  const email = normalizeEmail(rawEmail);
  if (!email || !token.trim()) return { ok: false, message: messages.resetLinkInvalid };
  if ((await consumeVerificationCode("reset", email, token)) !== "ok")
    return { ok: false, message: messages.resetLinkInvalid };
  const password = randomAlphanumeric(NEW_PASSWORD_LENGTH);
  const db = await getDb();
  const changed = await db
    .updateTable("users")
    .set({ password_hash: await hashPassword(password) })
    .where(sql`lower(email)`, "=", email)
    .where("email", "<>", "")
    .where("deleted_at", "is", null)
    .returning("id")
    .execute();
  if (changed.length === 0) return { ok: false, message: messages.resetLinkInvalid };
  for (const { id } of changed) await revokeUserSessions(id);
  return { ok: true, value: password };
}

/** `GET /api/oauth/email/bind` and the settings card: binds the address a code was sent to. */
export async function bindEmail(user: User, rawEmail: string, code: string): Promise<Outcome> {
  const email = normalizeEmail(rawEmail);
  if (!email) return { ok: false, message: messages.emailBindEmailRequired };
  if (!code.trim()) return { ok: false, message: messages.emailBindCodeRequired };
  const refusal = emailPolicyRefusal(email);
  if (refusal) return { ok: false, message: refusal };
  // Checked before the code is used up: a taken address keeps its code for nobody, but a
  // second binder racing the first is caught again below.
  if (await isEmailTaken(email, user.id)) return { ok: false, message: messages.emailTaken };
  const used = await consumeVerificationCode("email", email, code);
  if (used !== "ok") return { ok: false, message: codeRefusalMessage(used) };
  if (await isEmailTaken(email, user.id)) return { ok: false, message: messages.emailTaken };
  const db = await getDb();
  await db.updateTable("users").set({ email }).where("id", "=", user.id).execute();
  return { ok: true };
}
