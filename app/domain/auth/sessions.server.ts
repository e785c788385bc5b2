import { randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import type { User } from "../../../db/schema";
import { rememberLanguage } from "~/domain/users/language.server";
import { requestLocale } from "~/i18n/locale";
import { env } from "~/utils/env.server";
import { getDb } from "~/utils/db.server";
import { clientIp, requestIsHttps } from "~/utils/request.server";
import { getSessionSecret } from "~/utils/secrets.server";

/**
 * Server-side sessions: the cookie carries only a signed random id; the row in `sessions` is the
 * truth, so logout, banning and deletion take effect on the very next request, and role and
 * status are read fresh from `users` each time (the reference trusts a login-time snapshot).
 */
const maxAgeSeconds = env.SESSION_MAX_AGE_DAYS * 24 * 3600;

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie("session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: [getSessionSecret()],
    maxAge: maxAgeSeconds,
  });
  return cookie;
}

/**
 * `Secure` follows the scheme the browser used (decision 012): a Secure cookie sent over plain
 * HTTP (a LAN address, http://192.168.x.y:3000) is dropped by the browser and the sign-in is lost
 * without a word. INSECURE_COOKIES turns it off even over HTTPS.
 */
function cookieOptions(request: Request) {
  return { secure: !env.INSECURE_COOKIES && requestIsHttps(request) };
}

/**
 * Starts a session for the user signing in with this request; returns its Set-Cookie. The
 * language they sign in with is kept for the mails sent to them later.
 */
export async function createSession(request: Request, userId: number): Promise<string> {
  const meta = { ip: clientIp(request), userAgent: request.headers.get("User-Agent") ?? "" };
  const db = await getDb();
  const id = randomBytes(32).toString("base64url");
  await db
    .insertInto("sessions")
    .values({
      id,
      user_id: userId,
      expires_at: new Date(Date.now() + maxAgeSeconds * 1000),
      ip: meta.ip,
      user_agent: meta.userAgent.slice(0, 300),
    })
    .execute();
  await rememberLanguage(userId, requestLocale(request));
  return sessionCookie().serialize(id, cookieOptions(request));
}

async function readSessionId(request: Request): Promise<string | undefined> {
  const value: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value ? value : undefined;
}

/**
 * Whether the request carries a session cookie at all, valid or not. A browser that has one but
 * no live session behind it (expired, revoked, signed with an old secret) was signed in once;
 * a first-time visitor sends none.
 */
export function sentSessionCookie(request: Request): boolean {
  return /(?:^|;\s*)session=[^;\s]/.test(request.headers.get("Cookie") ?? "");
}

/** This browser's session id (signature checked), to bind something to the session: an OAuth state. */
export function currentSessionId(request: Request): Promise<string | undefined> {
  return readSessionId(request);
}

/** The signed-in user (current row), or undefined for visitors and revoked sessions. */
export async function getSessionUser(request: Request): Promise<User | undefined> {
  const id = await readSessionId(request);
  if (!id) return undefined;
  const db = await getDb();
  const user = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .where("sessions.id", "=", id)
    .where("sessions.expires_at", ">", new Date())
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
  return user;
}

/** Ends this browser's session; returns the Set-Cookie that clears it. */
export async function destroySession(request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id) {
    const db = await getDb();
    await db.deleteFrom("sessions").where("id", "=", id).execute();
  }
  return sessionCookie().serialize("", { ...cookieOptions(request), maxAge: 0, expires: new Date(0) });
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
