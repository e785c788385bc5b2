import { DEFAULT_LOCALE, isLocale, type Locale } from "~/i18n/locale";
import { getDb } from "~/utils/db.server";

/**
 * The language a user last read the console in (docs/decisions/045): recorded when they sign in
 * and when they press the language switch, read when a mail goes out with no request to ask (the
 * quota reminder, root's channel notices).
 */
export async function rememberLanguage(userId: number, locale: Locale): Promise<void> {
  const db = await getDb();
  // Most sign-ins change nothing: skip the write (and its row lock) then.
  await db
    .updateTable("users")
    .set({ language: locale })
    .where("id", "=", userId)
    .where("language", "<>", locale)
    .execute();
}

/** The locale a stored language names; Chinese while it is not known. */
export function mailLocale(stored: string | null | undefined): Locale {
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}
