import { createCookie } from "@remix-run/node";
import { PAGE_SIZES } from "./pagination";

/**
 * Per-browser list preferences the product keeps "locally" (page sizes, id sort). A cookie keeps
 * them without JavaScript; a choice made in the query string is remembered for next time.
 */
type Prefs = Record<string, string | number | boolean>;
const prefsCookie = createCookie("prefs", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 24 * 3600 });

async function readPrefs(request: Request): Promise<Prefs> {
  const value: unknown = await prefsCookie.parse(request.headers.get("Cookie"));
  return value && typeof value === "object" ? (value as Prefs) : {};
}

/** Resolves a page size from the query (remembering it) or the stored preference. */
export async function rememberedListPrefs(
  request: Request,
  scope: string,
  sizeParam: string,
  extraFlags: string[] = [],
): Promise<{ size: number; flags: Record<string, boolean>; setCookie?: string }> {
  const url = new URL(request.url);
  const prefs = await readPrefs(request);
  let changed = false;
  const fromQuery = Number(url.searchParams.get(sizeParam));
  if ((PAGE_SIZES as readonly number[]).includes(fromQuery) && prefs[`${scope}.size`] !== fromQuery) {
    prefs[`${scope}.size`] = fromQuery;
    changed = true;
  }
  const flags: Record<string, boolean> = {};
  for (const flag of extraFlags) {
    const q = url.searchParams.get(flag);
    if (q === "true" || q === "false") {
      const value = q === "true";
      if (prefs[`${scope}.${flag}`] !== value) {
        prefs[`${scope}.${flag}`] = value;
        changed = true;
      }
    }
    flags[flag] = prefs[`${scope}.${flag}`] === true;
  }
  const stored = Number(prefs[`${scope}.size`]);
  const size = (PAGE_SIZES as readonly number[]).includes(stored) ? stored : 10;
  return { size, flags, setCookie: changed ? await prefsCookie.serialize(prefs) : undefined };
}
