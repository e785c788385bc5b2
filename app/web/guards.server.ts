import { redirect } from "@remix-run/node";
import type { User } from "../../db/schema";
import { getSessionUser } from "~/domain/auth/sessions.server";
import { USER_STATUS_BANNED } from "~/domain/users/roles";
import { messages } from "~/messages";
import { bootApp } from "./boot.server";

/**
 * Console page guards. They read the user's current row on every request, so a demoted or
 * banned user loses access at once; a visitor is sent to /login and comes back afterwards.
 */
export async function requireUser(request: Request): Promise<User> {
  await bootApp();
  const user = await getSessionUser(request);
  if (!user || user.status === USER_STATUS_BANNED) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

export async function requireRole(request: Request, minRole: number): Promise<User> {
  const user = await requireUser(request);
  if (user.role < minRole) throw new Response(messages.forbidden, { status: 403 });
  return user;
}

export async function optionalUser(request: Request): Promise<User | undefined> {
  await bootApp();
  const user = await getSessionUser(request);
  return user && user.status !== USER_STATUS_BANNED ? user : undefined;
}
