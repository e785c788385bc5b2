import { createContext, useContext } from "react";
import type { MetaFunction } from "@remix-run/node";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/i18n/locale";
import { pageText, translateText } from "~/i18n/translate";

/**
 * The reader's language for the page being rendered (docs/decisions/045). The root loader
 * resolves it once (cookie, then Accept-Language, then Chinese) and the root layout provides it;
 * pages render on the server only, so this never has to agree with a browser-side render.
 */
const LocaleContext = createContext<Locale>(DEFAULT_LOCALE);

export const LocaleProvider = LocaleContext.Provider;

export function useLocale(): Locale {
  return useContext(LocaleContext);
}

export type PageText = (key: string, values?: Record<string, string | number>) => string;

/**
 * `t("令牌")` → the page text in the reader's language. Keys are the product's Chinese, exactly as
 * the page showed it before; English lives in `app/i18n/en/`. Values: `t("共 {{count}} 条", { count })`.
 * Where English needs the singular of a word the menu uses as a plural (a column "Token" beside
 * the menu's "Tokens"): `t("令牌", { context: "single" })`, English under `令牌_single`.
 */
export function useT(): PageText {
  const locale = useLocale();
  return (key, values) => pageText(locale, key, values);
}

/**
 * A finished Chinese message a loader handed over (a stored log line, a status reason with its
 * values already in) read back in the reader's language; text the catalog does not know (user
 * data, an upstream's words) comes back as it was. Page labels use `useT` instead.
 */
export function useMessage(): (text: string) => string {
  const locale = useLocale();
  return (text) => translateText(locale, text);
}

type Matches = Parameters<MetaFunction>[0]["matches"];

/** The locale a `meta` function renders in: the one the root loader resolved. */
export function metaLocale(matches: Matches): Locale {
  const root = matches.find((match) => match.id === "root")?.data as { locale?: unknown } | undefined;
  return isLocale(root?.locale) ? root.locale : DEFAULT_LOCALE;
}

/** A page's `<title>` in the reader's language: `meta = ({ matches }) => pageTitle(matches, "令牌")`. */
export function pageTitle(matches: Matches, key: string): { title: string }[] {
  return [{ title: pageText(metaLocale(matches), key) }];
}
