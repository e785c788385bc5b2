/**
 * Where a sign-in, a theme switch or any `redirectTo` may send the browser: only a path of this
 * site. A prefix check is not enough: browsers drop tabs and newlines inside URLs, so `/<TAB>/evil`
 * becomes `//evil` (another host), and they read `\` as `/`. So the value is resolved the way the
 * browser will resolve it and must keep our origin; control characters and backslashes are refused
 * outright. Shared by server and browser: no server imports.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const REFUSED = /[\u0000-\u001f\u007f\\]/;

export function safeRedirectPath(value: unknown, origin: string, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || REFUSED.test(value)) return fallback;
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(value, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin) return fallback;
  return target.pathname + target.search + target.hash;
}
