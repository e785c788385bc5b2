import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SiteContent } from "~/components/SiteContent";
import { loadSiteContent } from "~/domain/site/content.server";
import { whenBooted } from "~/utils/boot-gate.server";

export const meta: MetaFunction = () => [{ title: "关于" }];

export async function loader() {
  await whenBooted();
  return loadSiteContent("About");
}

export default function About() {
  const about = useLoaderData<typeof loader>();
  if (!about.raw) {
    return (
      <div className="card">
        <h1 className="text-xl font-bold">关于</h1>
        <p className="mt-2 text-gray-600 dark:text-gray-300">可在设置页面设置关于内容，支持 Markdown</p>
      </div>
    );
  }
  return <SiteContent frameUrl={about.frameUrl} html={about.html} title="关于" />;
}
