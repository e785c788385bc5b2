/**
 * Which language a reader gets: the `lang` cookie (set by the switch at `/lang`) wins, then the
 * browser's `Accept-Language` (the first language we have, by q-value), then Chinese, the
 * product's own language. Pure functions of the headers: no server or domain imports.
 */
export const LOCALES = ["zh", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "zh";
export const LANG_COOKIE = "lang";

export function isLocale(value: unknown): value is Locale {
  return value === "zh" || value === "en";
}

/** The locale a language tag names (`en-GB` → en, `zh-Hant` → zh), or undefined for any other language. */
function localeOfTag(tag: string): Locale | undefined {
  const primary = tag.trim().toLowerCase().split("-")[0];
  return isLocale(primary) ? primary : undefined;
}

/** The first locale of ours in an `Accept-Language` header, highest q-value first (ties keep header order). */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .slice(0, 32) // a header of thousands of entries says nothing more than its first few
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { locale: localeOfTag(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.locale && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked[0]?.locale;
}

/** The `lang` cookie's value when it names a locale of ours. */
export function localeFromCookie(cookieHeader: string | null | undefined): Locale | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(";")) {
    const [name, value] = pair.split("=");
    if (name?.trim() === LANG_COOKIE && isLocale(value?.trim())) return value.trim() as Locale;
  }
  return undefined;
}

export function resolveLocale(headers: { cookie?: string | null; acceptLanguage?: string | null }): Locale {
  return localeFromCookie(headers.cookie) ?? localeFromAcceptLanguage(headers.acceptLanguage) ?? DEFAULT_LOCALE;
}

export function requestLocale(request: Request): Locale {
  return resolveLocale({
    cookie: request.headers.get("Cookie"),
    acceptLanguage: request.headers.get("Accept-Language"),
  });
}

/** The Set-Cookie value that keeps a reader's choice for a year. */
export function langCookie(locale: Locale): string {
  return `${LANG_COOKIE}=${locale}; Path=/; Max-Age=${365 * 24 * 3600}; SameSite=Lax`;
}
