import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";
import { SiteContent } from "~/components/SiteContent";
import { loadSiteContent } from "~/domain/site/content.server";
import { effectiveSystemName } from "~/domain/options/store.server";
import { optionalUser } from "~/web/guards.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  return {
    signedIn: Boolean(user),
    systemName: effectiveSystemName(),
    home: loadSiteContent("HomePageContent"),
    notice: loadSiteContent("Notice"),
  };
}

export default function Home() {
  const { home, notice, systemName, signedIn } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <div className="flex flex-col gap-4">
      {notice.html ? (
        <section className="card border-yellow-300 dark:border-yellow-700" aria-label={t("公告")}>
          <h2 className="mb-1 font-semibold">{t("公告")}</h2>
          <SiteContent html={notice.html} title={t("公告")} />
        </section>
      ) : null}
      {home.raw ? (
        <SiteContent frameUrl={home.frameUrl} html={home.html} title={systemName} />
      ) : (
        <section className="card">
          <h1 className="text-2xl font-bold">{systemName}</h1>
          <p className="mt-2 text-gray-600 dark:text-gray-300">
            {t(
              "统一的 AI 模型接口网关：一个 OpenAI 兼容的地址与令牌，接入 OpenAI、Azure、Claude、Gemini 等多家上游渠道，按量计费，自动重试与故障转移。",
            )}
          </p>
          <div className="mt-4 flex gap-2">
            {signedIn ? (
              <Link to="/token" className="btn-primary">
                {t("管理令牌")}
              </Link>
            ) : (
              <>
                <Link to="/login" className="btn-primary">
                  {t("登录")}
                </Link>
                <Link to="/register" className="btn-secondary">
                  {t("注册")}
                </Link>
              </>
            )}
            <Link to="/pricing" className="btn-secondary">
              {t("模型价格")}
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
