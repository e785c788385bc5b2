import { randomBytes } from "node:crypto";
import type { User } from "../../../db/schema";
import { rememberLanguage } from "~/domain/users/language.server";
import type { Locale } from "~/i18n/locale";
import { env } from "~/utils/env.server";
import { getDb } from "~/utils/db.server";

/**
 * Server-side sessions: a session is a random id and its row in `sessions`, which is the truth,
 * so logout, banning and deletion take effect on the very next request, and role and status are
 * read fresh from `users` each time (the reference trusts a login-time snapshot). The browser
 * carries the id in a signed cookie; that cookie is the web layer's
 * (`app/web/session-cookie.server.ts`).
 */
export const SESSION_MAX_AGE_SECONDS = env.SESSION_MAX_AGE_DAYS * 24 * 3600;

/** Where a sign-in came from, kept on its session row. */
export type SessionClient = { ip: string; userAgent: string; locale: Locale };

/**
 * Starts a session for a user signing in; returns its id. The language they sign in with is kept
 * for the mails sent to them later.
 */
export async function openSession(userId: number, client: SessionClient): Promise<string> {
  const db = await getDb();
  const id = randomBytes(32).toString("base64url");
  await db
    .insertInto("sessions")
    .values({
      id,
      user_id: userId,
      expires_at: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
      ip: client.ip,
      user_agent: client.userAgent.slice(0, 300),
    })
    .execute();
  await rememberLanguage(userId, client.locale);
  return id;
}

/** The user (current row) of a live session, or undefined for an expired or revoked one. */
export async function findSessionUser(sessionId: string): Promise<User | undefined> {
  const db = await getDb();
  const user = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .where("sessions.id", "=", sessionId)
    .where("sessions.expires_at", ">", new Date())
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
  return user;
}

/** Ends one session (a sign-out). */
export async function deleteSession(sessionId: string): Promise<void> {
  const db = await getDb();
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

/** Every session of a user (ban, deletion, password change), but the one kept (the changer's own). */
export async function revokeUserSessions(userId: number, exceptSessionId?: string): Promise<void> {
  const db = await getDb();
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (exceptSessionId) query = query.where("id", "<>", exceptSessionId);
  await query.execute();
}

export async function deleteExpiredSessions(): Promise<number> {
  const db = await getDb();
  const result = await db.deleteFrom("sessions").where("expires_at", "<=", new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
