import { createHmac, randomInt } from "node:crypto";
import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { getSessionSecret } from "~/utils/secrets.server";

/**
 * Email verification codes and password-reset tokens, in PostgreSQL (docs/decisions/017): every
 * node sees the same code, and a Redis outage does not stop sign-ups. One live code per purpose
 * and address; a new one replaces the old. Times are the database's clock, so nodes whose clocks
 * differ still agree on expiry and cooldown.
 */
export type CodePurpose = "email" | "reset";

/** The reference's validity (10 minutes) and the product's resend cooldown (30 s). */
export const CODE_TTL_SECONDS = 600;
export const RESEND_COOLDOWN_SECONDS = 30;
/** Wrong guesses a code survives: a 6-digit code must not be guessable within its 10 minutes. */
export const MAX_WRONG_ATTEMPTS = 5;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Keyed with the session secret (which every node of a deployment shares): a database dump alone
 * does not give the 10⁶ codes away to a brute-force of a plain hash.
 */
function hashCode(purpose: CodePurpose, email: string, code: string): string {
  return createHmac("sha256", getSessionSecret()).update(`${purpose}\n${email}\n${code.trim()}`).digest("hex");
}

export function newSixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export type IssueResult = { ok: true } | { ok: false; waitSeconds: number };

/**
 * Stores `code` as the live one for this address unless one was sent less than the cooldown
 * ago (then: how long to wait). The check and the write are one statement, so two nodes asked at
 * once send one mail.
 */
export async function issueVerificationCode(
  purpose: CodePurpose,
  rawEmail: string,
  code: string,
): Promise<IssueResult> {
  const email = normalizeEmail(rawEmail);
  const db = await getDb();
  // Expired rows are dead weight; clearing them here keeps the table at the live codes.
  await db
    .deleteFrom("verification_codes")
    .where("expires_at", "<=", sql<Date>`now()`)
    .execute();
  const stored = await db
    .insertInto("verification_codes")
    .values({
      purpose,
      email,
      code_hash: hashCode(purpose, email, code),
      sent_at: sql<Date>`now()`,
      expires_at: sql<Date>`now() + make_interval(secs => ${CODE_TTL_SECONDS})`,
      attempts: 0,
    })
    .onConflict((oc) =>
      oc
        .columns(["purpose", "email"])
        .doUpdateSet((eb) => ({
          code_hash: eb.ref("excluded.code_hash"),
          sent_at: eb.ref("excluded.sent_at"),
          expires_at: eb.ref("excluded.expires_at"),
          attempts: 0,
        }))
        .where(sql<boolean>`verification_codes.sent_at <= now() - make_interval(secs => ${RESEND_COOLDOWN_SECONDS})`),
    )
    .returning("purpose")
    .executeTakeFirst();
  if (stored) return { ok: true };
  const row = await db
    .selectFrom("verification_codes")
    .select(
      sql<string>`extract(epoch from (sent_at + make_interval(secs => ${RESEND_COOLDOWN_SECONDS}) - now()))`.as("wait"),
    )
    .where("purpose", "=", purpose)
    .where("email", "=", email)
    .executeTakeFirst();
  return { ok: false, waitSeconds: Math.max(1, Math.ceil(Number(row?.wait ?? 1))) };
}

/** Takes back a code whose mail could not be sent, so the user may ask again at once. */
export async function withdrawVerificationCode(purpose: CodePurpose, rawEmail: string, code: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  const db = await getDb();
  await db
    .deleteFrom("verification_codes")
    .where("purpose", "=", purpose)
    .where("email", "=", email)
    .where("code_hash", "=", hashCode(purpose, email, code))
    .execute();
}

/** ok; wrong (guess counted); exhausted (that was the last guess allowed); expired (no live code). */
export type ConsumeResult = "ok" | "wrong" | "exhausted" | "expired";

/**
 * Uses the code up if it matches: the delete is the check, so of two requests racing with the
 * same code exactly one succeeds. A wrong guess is counted; the code dies after MAX_WRONG_ATTEMPTS.
 */
export async function consumeVerificationCode(
  purpose: CodePurpose,
  rawEmail: string,
  code: string,
): Promise<ConsumeResult> {
  const email = normalizeEmail(rawEmail);
  if (!email || !code.trim()) return "wrong";
  const db = await getDb();
  const used = await db
    .deleteFrom("verification_codes")
    .where("purpose", "=", purpose)
    .where("email", "=", email)
    .where("code_hash", "=", hashCode(purpose, email, code))
    .where("expires_at", ">", sql<Date>`now()`)
    .where("attempts", "<", MAX_WRONG_ATTEMPTS)
    .returning("purpose")
    .executeTakeFirst();
  if (used) return "ok";
  const counted = await db
    .updateTable("verification_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("purpose", "=", purpose)
    .where("email", "=", email)
    .where("expires_at", ">", sql<Date>`now()`)
    .where("attempts", "<", MAX_WRONG_ATTEMPTS)
    .returning("attempts")
    .executeTakeFirst();
  if (!counted) return "expired";
  return counted.attempts >= MAX_WRONG_ATTEMPTS ? "exhausted" : "wrong";
}
