import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  isRouteErrorResponse,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { Footer } from "~/components/shell/Footer";
import { isNewYearSeason, visibleMenuItems } from "~/components/shell/menu";
import { SideMenu } from "~/components/shell/SideMenu";
import { TopBar } from "~/components/shell/TopBar";
import { FlashBanner } from "~/components/FlashBanner";
import { DefaultPasswordDialog } from "~/components/DefaultPasswordDialog";
import { buildPublicStatus, APP_VERSION } from "~/domain/site/status.server";
import { messages } from "~/messages";
import { clearFlash, readFlash } from "~/utils/flash.server";
import { DEFAULT_LOCALE, requestLocale } from "~/i18n/locale";
import { pageText, translateText } from "~/i18n/translate";
import { LocaleProvider, metaLocale, useT } from "~/components/i18n/locale-context";
import { optionalUser } from "~/web/guards.server";
import { readTheme } from "~/utils/theme.server";
import { requestTimeZone } from "~/utils/time-zone.server";
import { TIME_ZONE_COOKIE } from "~/utils/time-zone";
import { PageScripts } from "~/components/shell/PageScripts";
import { QuarantineNotice } from "~/components/shell/QuarantineNotice";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { quarantineStatus } from "~/relay/billing/journal-quarantine.server";
import stylesheet from "./tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/logo.svg", type: "image/svg+xml" },
];

// The not-found page names itself in the tab and in history, as its heading does, rather than
// passing for the site's home under the site name.
export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  {
    title:
      isRouteErrorResponse(error) && error.status === 404
        ? pageText(metaLocale(matches), messages.notFound)
        : (data?.systemName ?? "Switchyard"),
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  const status = buildPublicStatus();
  const [theme, flash] = await Promise.all([readTheme(request), readFlash(request)]);
  const locale = requestLocale(request);
  const headers = new Headers();
  if (flash) headers.append("Set-Cookie", await clearFlash());
  const menu = user
    ? visibleMenuItems({
        role: user.role,
        enableDataExport: status.enable_data_export,
        enableDrawing: status.enable_drawing,
        enableTask: status.enable_task,
        hasChatLink: Boolean(status.chat_link) || status.chats.length > 0,
      })
    : [];
  return data(
    {
      theme,
      timeZone: requestTimeZone(request),
      // A notice is written in Chinese by the action that set it; it is read in the reader's language.
      flash: flash ? { ...flash, message: translateText(locale, flash.message) } : null,
      // Every page renders in this language (docs/decisions/045); the top bar offers the other.
      locale,
      systemName: status.system_name,
      logo: status.logo,
      footerHtml: status.footer_html,
      collapseSidebar: status.default_collapse_sidebar,
      version: APP_VERSION,
      newYear: isNewYearSeason(new Date()),
      user: user
        ? { id: user.id, username: user.username, display_name: user.display_name, role: user.role }
        : undefined,
      menu,
      billingQuarantine: user && user.role >= ROLE_ADMIN ? quarantineNotice() : null,
    },
    { headers },
  );
}

/** Settlements set aside by billing: admins are told until someone deals with them. */
function quarantineNotice() {
  const { lines, dir } = quarantineStatus();
  return lines > 0 ? { lines, dir } : null;
}

export function useShellData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const shell = useShellData();
  const locale = shell?.locale ?? DEFAULT_LOCALE;
  return (
    // data-tz: the zone this page's times are in; the enhancement script sends the browser's own
    // as a cookie when it differs (without script the server's zone is used throughout).
    <html
      lang={locale === "en" ? "en" : "zh-CN"}
      className={shell?.theme === "dark" ? "dark" : ""}
      data-tz={shell?.timeZone}
      data-tz-cookie={shell ? TIME_ZONE_COOKIE : undefined}
      data-copied-text={pageText(locale, "已复制到剪贴板！")}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-gray-50 text-gray-900 dark:bg-gray-950 dark:text-gray-100">
        <LocaleProvider value={locale}>{children}</LocaleProvider>
        <PageScripts />
      </body>
    </html>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const shell = useShellData();
  if (!shell) return <main className="p-6">{children}</main>;
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar
        systemName={shell.systemName}
        logo={shell.logo}
        theme={shell.theme}
        user={shell.user}
        newYear={shell.newYear}
        locale={shell.locale}
      />
      <div className="flex flex-1 flex-col sm:flex-row">
        {shell.user ? <SideMenu items={shell.menu} collapsed={shell.collapseSidebar} /> : null}
        <main className="min-w-0 flex-1 p-3 sm:p-5">
          {shell.flash ? <FlashBanner type={shell.flash.type} message={shell.flash.message} /> : null}
          {shell.billingQuarantine ? <QuarantineNotice {...shell.billingQuarantine} /> : null}
          {shell.flash?.defaultPassword ? <DefaultPasswordDialog /> : null}
          {children}
        </main>
      </div>
      <Footer html={shell.footerHtml} systemName={shell.systemName} version={shell.version} />
    </div>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  let title: string = messages.serverError;
  let detail = "";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = messages.notFound;
      detail = messages.notFoundHint;
    } else if (error.status === 403) {
      title = messages.forbidden;
    } else if (error.status === 429) {
      title = messages.tooManyRequests;
    } else if (error.status === 503) {
      // Something this page needs is away for now (the database): say what, and to try again.
      title =
        typeof error.data === "string" && error.data ? error.data.slice(0, 200) : messages.databaseUnavailablePage;
      detail = messages.retryLater;
    } else if (error.status === 400) {
      // A refusal at the edge (a NUL in a field, a form that cannot be read) says what was wrong.
      title = typeof error.data === "string" && error.data ? error.data.slice(0, 200) : messages.badRequest;
    }
  } else {
    console.error(error);
  }
  return (
    <Shell>
      <div className="card mx-auto mt-10 max-w-md text-center">
        <h1 className="text-xl font-bold">{t(title)}</h1>
        {detail ? <p className="mt-2 text-sm text-gray-500">{t(detail)}</p> : null}
      </div>
    </Shell>
  );
}
