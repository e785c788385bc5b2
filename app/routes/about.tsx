import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { SiteContent } from "~/components/SiteContent";
import { loadSiteContent } from "~/domain/site/content.server";
import { whenBooted } from "~/utils/boot-gate.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "关于");

export async function loader() {
  await whenBooted();
  return loadSiteContent("About");
}

export default function About() {
  const about = useLoaderData<typeof loader>();
  const t = useT();
  if (!about.raw) {
    return (
      <div className="card">
        <h1 className="text-xl font-bold">{t("关于")}</h1>
        <p className="mt-2 text-gray-600 dark:text-gray-300">{t("可在设置页面设置关于内容，支持 Markdown")}</p>
      </div>
    );
  }
  return <SiteContent frameUrl={about.frameUrl} html={about.html} title={t("关于")} />;
}
