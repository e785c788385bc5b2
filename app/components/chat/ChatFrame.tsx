import type { MetaDescriptor, MetaFunction } from "@remix-run/node";
import { NavLink } from "@remix-run/react";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";

export type ChatFrameProps =
  | { state: "open"; name: string; url: string; kind: "frame" | "app"; presets: { name: string; href: string }[] }
  | { state: "no-token"; message: string; redirectTo: string }
  | { state: "error"; message: string };

/**
 * The page's meta: no Referer leaves it (also on a client-side navigation, where the response
 * header does not apply), and the no-token page moves on to /token by itself — a meta refresh, so
 * it happens without JavaScript; Remix inserts it on client navigations too, and browsers act on
 * an inserted refresh.
 */
export function chatFrameMeta(
  matches: Parameters<MetaFunction>[0]["matches"],
  view: ChatFrameProps | undefined,
  seconds: number,
): MetaDescriptor[] {
  const meta: MetaDescriptor[] = [...pageTitle(matches, "聊天"), { name: "referrer", content: "no-referrer" }];
  if (view?.state === "no-token") meta.push({ httpEquiv: "refresh", content: `${seconds};url=${view.redirectTo}` });
  return meta;
}

// The chat site may run its scripts, keep its storage, submit forms and open windows, but not
// navigate the console's own window away (no allow-top-navigation).
const SANDBOX =
  "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads allow-modals";

export function ChatFrame(view: ChatFrameProps) {
  const t = useT();
  // The loader's refusal is a finished Chinese message; a preset's name is the operator's, or the product's own 聊天.
  const message = useMessage();
  if (view.state !== "open") {
    return (
      <div
        role="alert"
        className="card border-red-300 text-red-700 dark:border-red-700 dark:text-red-300"
        data-testid="chat-error"
      >
        <p className="font-semibold">{message(view.message)}</p>
        {view.state === "no-token" ? <p className="mt-1 text-sm">{t("正在跳转......")}</p> : null}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {view.presets.length > 1
          ? view.presets.map((p) => (
              <NavLink
                key={p.href}
                to={p.href}
                className={({ isActive }) =>
                  `rounded px-2 py-1 ${isActive ? "bg-blue-600 text-white" : "border border-gray-300 hover:bg-gray-100 dark:border-gray-600 dark:hover:bg-gray-800"}`
                }
              >
                {message(p.name)}
              </NavLink>
            ))
          : null}
        <a
          href={view.url}
          target="_blank"
          rel="noreferrer noopener"
          className="ml-auto text-blue-600 hover:underline dark:text-blue-400"
          data-testid="chat-open"
        >
          {view.kind === "frame" ? t("在新标签页打开") : t("打开 {{name}}", { name: message(view.name) })}
        </a>
      </div>
      {view.kind === "frame" ? (
        <iframe
          src={view.url}
          title={message(view.name)}
          referrerPolicy="no-referrer"
          sandbox={SANDBOX}
          allow="clipboard-write; microphone"
          className="h-[calc(100vh-10rem)] w-full rounded border border-gray-200 dark:border-gray-700"
          data-testid="chat-frame"
        />
      ) : (
        <p className="card text-sm">{t("该聊天应用需在本机安装的客户端中打开，请点击上方链接。")}</p>
      )}
    </div>
  );
}
