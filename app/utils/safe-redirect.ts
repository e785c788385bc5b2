/**
 * Where a sign-in, a theme switch or any `redirectTo` may send the browser: only a path of this
 * site. Every redirect whose target comes from the request goes through here.
 *
 * A prefix check is not enough:
 * - browsers drop tabs and newlines inside URLs, so `/<TAB>/evil` becomes `//evil` (another
 *   host), and they read `\` as `/`: control characters and backslashes are refused outright;
 * - dot segments collapse, so `/.//evil` and `/a/..//evil` resolve to `//evil`: the value is
 *   resolved the way the browser will resolve it, and the result must not start with `//`;
 * - a proxy, the router or a later hop may decode escapes (`/.%2F%2Fevil`, `/%5Cevil`, even
 *   twice: `%252F`): the path is decoded until it stops changing and each form is held to the
 *   same rules. No page of the console has an escaped slash or backslash in its path.
 *
 * Shared by server and browser: no server imports.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const REFUSED = /[\u0000-\u001f\u007f\\]/;
/** A path the browser reads as this origin's: one slash, then anything but a slash or backslash. */
const ON_SITE_PATH = /^\/(?![/\\])/;
/** Escapes are peeled this many times at most; a path still changing after that is refused. */
const MAX_DECODE_ROUNDS = 4;

/** The value resolved against the origin as a browser would, or undefined when it leaves the origin or the site's paths. */
function resolveOnSite(value: string, base: URL): URL | undefined {
  if (!value.startsWith("/") || REFUSED.test(value)) return undefined;
  let target: URL;
  try {
    target = new URL(value, base);
  } catch {
    return undefined;
  }
  return target.origin === base.origin && ON_SITE_PATH.test(target.pathname) ? target : undefined;
}

/** Whether every decoding of the path (one layer of escapes at a time) still stays on this site. */
function staysOnSiteDecoded(pathname: string, base: URL): boolean {
  let current = pathname;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return false; // a broken escape: no page of ours has one, and a decoder might do anything with it
    }
    if (decoded === current) return true;
    const resolved = resolveOnSite(decoded, base);
    if (!resolved) return false;
    // Re-encoded to what it was (non-ASCII text such as /令牌): nothing more to peel.
    if (resolved.pathname === current) return true;
    current = resolved.pathname;
  }
  return false;
}

export function safeRedirectPath(value: unknown, origin: string, fallback = "/"): string {
  if (typeof value !== "string") return fallback;
  let base: URL;
  try {
    base = new URL(origin);
  } catch {
    return fallback;
  }
  const target = resolveOnSite(value, base);
  if (!target || !staysOnSiteDecoded(target.pathname, base)) return fallback;
  const path = target.pathname + target.search + target.hash;
  // The invariant itself, whatever the checks above missed: never protocol-relative.
  return ON_SITE_PATH.test(path) ? path : fallback;
}
