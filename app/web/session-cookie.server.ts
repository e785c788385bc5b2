import { createCookie } from "@remix-run/node";
import type { User } from "../../db/schema";
import { deleteSession, findSessionUser, openSession, SESSION_MAX_AGE_SECONDS } from "~/domain/auth/sessions.server";
import { requestLocale } from "~/i18n/locale";
import { env } from "~/utils/env.server";
import { clientIp, requestIsHttps } from "~/utils/request.server";
import { getSessionSecret } from "~/utils/secrets.server";

/**
 * The session cookie: it carries only the signed random id of a server-side session
 * (`app/domain/auth/sessions.server.ts`, where the row is the truth). This module reads it from a
 * request and writes it to a response; the domain sees only the id.
 */
let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie("session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secrets: [getSessionSecret()],
    maxAge: SESSION_MAX_AGE_SECONDS,
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
  const id = await openSession(userId, {
    ip: clientIp(request),
    userAgent: request.headers.get("User-Agent") ?? "",
    locale: requestLocale(request),
  });
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
  return findSessionUser(id);
}

/** Ends this browser's session; returns the Set-Cookie that clears it. */
export async function destroySession(request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id) await deleteSession(id);
  return sessionCookie().serialize("", { ...cookieOptions(request), maxAge: 0, expires: new Date(0) });
}
