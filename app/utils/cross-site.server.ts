import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "./env.server";

/**
 * One guard for every state-changing request another site could make a signed-in browser send:
 * console form posts (/logout, /theme, /token, /channel, /setting, …) and cookie-carried
 * /api calls. The browser says where a request comes from: `Sec-Fetch-Site` (every current
 * browser), else `Origin`. Only our own origin (or a request the user typed, `none`) may change
 * anything; a request that names neither is not a browser's cross-site request and passes
 * (scripts, curl). /api calls with an access token in Authorization are scripts with their own
 * credential and pass too. The relay is served before this and has no cookies.
 *
 * It runs in the server entry before Remix, so a refused request costs no action and no body
 * read, and Remix's own cross-origin refusal (a 500 from its CSRF check on data requests) is
 * never reached.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// The reference signs out on GET (its console calls it so); a link on another site must not.
const CHANGING_GETS = new Set(["/api/user/logout"]);

type HeaderLookup = (name: string) => string | undefined;

function firstValue(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return one?.split(",")[0]?.trim() || undefined;
}

/** scheme://host as the browser addressed us (the proxy's view only with TRUST_PROXY). */
export function ownOrigin(header: HeaderLookup, encrypted: boolean): string | undefined {
  const proto = (env.TRUST_PROXY && header("x-forwarded-proto")) || (encrypted ? "https" : "http");
  const host = (env.TRUST_PROXY && header("x-forwarded-host")) || header("host");
  return host ? `${proto.toLowerCase()}://${host.toLowerCase()}` : undefined;
}

/** Why this request is refused as cross-site, or undefined when it may go on. */
export function crossSiteRefusal(
  method: string,
  path: string,
  header: HeaderLookup,
  encrypted: boolean,
): string | undefined {
  if (SAFE_METHODS.has(method.toUpperCase()) && !CHANGING_GETS.has(path)) return undefined;
  if (path.startsWith("/api/") && header("authorization")) return undefined;
  const site = header("sec-fetch-site")?.toLowerCase();
  if (site) return site === "same-origin" || site === "none" ? undefined : `Sec-Fetch-Site: ${site}`;
  const origin = header("origin")?.toLowerCase();
  if (!origin) return undefined;
  return origin === ownOrigin(header, encrypted) ? undefined : `Origin: ${origin}`;
}

export const CROSS_SITE_MESSAGE = "拒绝跨站请求：请在本站页面上操作";

/** Node-level form of the guard for the server entry: answers 403 and returns true when refused. */
export function refuseCrossSiteMutation(req: IncomingMessage, res: ServerResponse): boolean {
  const header: HeaderLookup = (name) => firstValue(req.headers[name]);
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const refusal = crossSiteRefusal(
    req.method ?? "GET",
    path,
    header,
    "encrypted" in req.socket && Boolean(req.socket.encrypted),
  );
  if (!refusal) return false;
  const api = path.startsWith("/api/") || path.startsWith("/pg/");
  const body = api ? JSON.stringify({ success: false, message: CROSS_SITE_MESSAGE }) : CROSS_SITE_MESSAGE;
  res.writeHead(403, {
    "Content-Type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  res.end(body);
  return true;
}
