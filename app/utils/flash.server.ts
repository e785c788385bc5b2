import { createCookie } from "@remix-run/node";
import { getSessionSecret } from "./secrets.server";

/**
 * One-shot notices carried across the POST → redirect → GET of a console form (the toasts of
 * docs/product.md), plus the default-password warning shown after root signs in. Signed so a visitor
 * cannot forge one; read and cleared by the root loader.
 */
export type Flash = { type: "success" | "error" | "info"; message: string; defaultPassword?: boolean };

let cookie: ReturnType<typeof createCookie> | undefined;
function flashCookie() {
  cookie ??= createCookie("flash", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    // Never Secure: a notice is signed and carries no credential, and over plain HTTP a Secure
    // flash would vanish with the message the visitor needed (the sign-in notice among them).
    secrets: [getSessionSecret()],
    maxAge: 60,
  });
  return cookie;
}

export function setFlash(flash: Flash): Promise<string> {
  return flashCookie().serialize(flash);
}

export async function readFlash(request: Request): Promise<Flash | undefined> {
  const value: unknown = await flashCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return undefined;
  return value as Flash;
}

export function clearFlash(): Promise<string> {
  return flashCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** A redirect that carries a notice; extra cookies (a new session) may ride along. */
export async function redirectWithFlash(to: string, flash: Flash, extraCookies: string[] = []): Promise<Response> {
  const headers = new Headers({ Location: to });
  for (const c of extraCookies) headers.append("Set-Cookie", c);
  headers.append("Set-Cookie", await setFlash(flash));
  return new Response(null, { status: 302, headers });
}
