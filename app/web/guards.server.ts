import { redirect } from "@remix-run/node";
import type { User } from "../../db/schema";
import { USER_STATUS_BANNED } from "~/domain/users/roles";
import { messages } from "~/messages";
import { whenBooted } from "~/utils/boot-gate.server";
import { destroySession, getSessionUser, sentSessionCookie } from "./session-cookie.server";

/**
 * Console page guards. They read the user's current row on every request, so a demoted or
 * banned user loses access at once; a visitor is sent to /login and comes back afterwards.
 */
export async function requireUser(request: Request): Promise<User> {
  await whenBooted();
  const user = await getSessionUser(request);
  if (!user || user.status === USER_STATUS_BANNED) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    const params = new URLSearchParams(back === "/" ? {} : { redirectTo: back });
    // A cookie with no live session behind it means the sign-in ran out: /login says so (its
    // expired=true notice) and the dead cookie goes, so the notice shows once. A first visit,
    // with no cookie, gets the plain page.
    const stale = !user && sentSessionCookie(request);
    if (stale) params.set("expired", "true");
    const target = params.size ? `/login?${params}` : "/login";
    throw redirect(target, stale ? { headers: { "Set-Cookie": await destroySession(request) } } : undefined);
  }
  return user;
}

export async function requireRole(request: Request, minRole: number): Promise<User> {
  const user = await requireUser(request);
  if (user.role < minRole) throw new Response(messages.forbidden, { status: 403 });
  return user;
}

export async function optionalUser(request: Request): Promise<User | undefined> {
  await whenBooted();
  const user = await getSessionUser(request);
  return user && user.status !== USER_STATUS_BANNED ? user : undefined;
}
