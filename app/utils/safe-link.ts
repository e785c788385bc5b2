/**
 * Links an operator stores for the console to render (an href, an image source) or for the
 * server to call. Only http(s) is a link here: `javascript:`, `data:` and the like would run
 * script on the console's origin for whoever clicks, and `//host` or `/\host` is another site.
 * Shared by server and browser: no server imports.
 */
// eslint-disable-next-line no-control-regex -- control characters and spaces are exactly what is refused
const NOT_IN_SITE_PATH = /[\u0000-\u0020\u007f\\]/;

/** An absolute http(s) address, read as a browser reads it (so ` JaVaScRiPt:` or `java\tscript:` is what it is). */
export function isHttpLink(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A path of this site: one slash, then neither a second slash nor a backslash, no spaces or controls. */
export function isSitePath(value: string): boolean {
  return /^\/(?![/\\])/.test(value) && !NOT_IN_SITE_PATH.test(value);
}

/** Whether a stored link may be rendered or called: http(s), or (where the option allows it) a path of this site. */
export function isAllowedLink(value: string, allowSitePath = false): boolean {
  return isHttpLink(value) || (allowSitePath && isSitePath(value));
}
