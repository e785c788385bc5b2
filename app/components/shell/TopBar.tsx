import { useLocation } from "@remix-run/react";
import type { Theme } from "~/utils/theme.server";
import type { Locale } from "~/i18n/locale";
import { useT } from "~/components/i18n/locale-context";

/** Plain links and forms throughout: every page is a whole-document load (no page runs a client router). */
export type ShellUser = { id: number; username: string; display_name: string; role: number };

export function TopBar(props: {
  systemName: string;
  logo: string;
  theme: Theme;
  user?: ShellUser;
  newYear: boolean;
  locale: Locale;
}) {
  const location = useLocation();
  const t = useT();
  const here = location.pathname + location.search;
  return (
    <header className="flex items-center gap-2 border-b sm:gap-3 border-gray-200 bg-white px-3 py-2 dark:border-gray-700 dark:bg-gray-900">
      <a href="/" className="flex min-w-0 items-center gap-2 font-semibold">
        <img src={props.logo || "/logo.svg"} alt="" width={28} height={28} className="h-7 w-7" />
        <span className="truncate">{props.systemName}</span>
      </a>
      <nav className="flex shrink-0 items-center gap-2 whitespace-nowrap text-sm sm:gap-3">
        <a href="/" className="hover:underline">
          {t("首页")}
        </a>
        <a href="/about" className="hover:underline">
          {t("关于")}
        </a>
        {props.newYear ? <span title={t("新年快乐")}>🧨 {t("新年快乐")}</span> : null}
      </nav>
      <div className="ml-auto flex shrink-0 items-center gap-2">
        <LanguageSwitch locale={props.locale} here={here} />
        {/* A plain form: without script it posts and comes back; with it the switch happens in place. */}
        <form method="post" action="/theme" data-theme-toggle="">
          <input type="hidden" name="redirectTo" value={here} />
          <input type="hidden" name="theme" value={props.theme === "dark" ? "light" : "dark"} />
          <button
            type="submit"
            className="btn-secondary px-2 sm:px-3"
            aria-label={props.theme === "dark" ? t("切换到浅色模式") : t("切换到深色模式")}
            data-label-dark={t("切换到浅色模式")}
            data-label-light={t("切换到深色模式")}
            data-testid="theme-toggle"
          >
            {/* Both icons, the page's theme shows one: switched in place, the icon follows. */}
            <SunIcon />
            <MoonIcon />
          </button>
        </form>
        {props.user ? (
          <details className="relative" data-dismiss="">
            <summary className="btn-secondary list-none" data-testid="user-menu">
              {props.user.display_name || props.user.username}
            </summary>
            <div className="absolute right-0 z-20 mt-1 w-32 rounded border border-gray-200 bg-white p-1 shadow dark:border-gray-700 dark:bg-gray-800">
              <a href="/setting" className="block rounded px-2 py-1 text-sm hover:bg-gray-100 dark:hover:bg-gray-700">
                {t("个人设置")}
              </a>
              <form method="post" action="/logout">
                <button
                  type="submit"
                  className="block w-full rounded px-2 py-1 text-left text-sm hover:bg-gray-100 dark:hover:bg-gray-700"
                >
                  {t("退出")}
                </button>
              </form>
            </div>
          </details>
        ) : (
          <>
            <a href="/login" className="btn-secondary">
              {t("登录")}
            </a>
            <a href="/register" className="btn-primary">
              {t("注册")}
            </a>
          </>
        )}
      </div>
    </header>
  );
}

/**
 * A plain link to the other language, named in that language (the convention of language menus,
 * and marked with its `lang` so screen readers say it right). `/lang` keeps the choice in a cookie.
 */
function LanguageSwitch({ locale, here }: { locale: Locale; here: string }) {
  const to = locale === "en" ? "zh" : "en";
  const href = `/lang?to=${to}&back=${encodeURIComponent(here)}`;
  return (
    <a
      href={href}
      lang={to === "zh" ? "zh-CN" : "en"}
      hrefLang={to === "zh" ? "zh-CN" : "en"}
      className="btn-secondary px-2 sm:px-3"
      data-testid="language-switch"
    >
      {/* On a phone the top bar is full: "EN" there, the name (and for screen readers always) elsewhere. */}
      {to === "zh" ? (
        "中文"
      ) : (
        <>
          <span className="sm:hidden" aria-hidden="true">
            EN
          </span>
          <span className="sr-only sm:not-sr-only">English</span>
        </>
      )}
    </a>
  );
}

// Inline SVG, not an emoji: machines without an emoji font showed an empty box.
function SunIcon() {
  return (
    <svg
      className="hidden dark:inline"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg
      className="dark:hidden"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
}
