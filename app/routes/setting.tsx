import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { OperationSettings } from "~/components/settings/OperationSettings";
import { OtherSettings } from "~/components/settings/OtherSettings";
import { PersonalSettings } from "~/components/settings/PersonalSettings";
import { SystemSettings } from "~/components/settings/SystemSettings";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { ROLE_ROOT } from "~/domain/users/roles";
import { messages } from "~/messages";
import { readForm } from "~/utils/edge-input";
import { requireUser } from "~/web/guards.server";
import { loadOperationTab, operationTabAction } from "~/web/settings/operation.server";
import { loadOtherTab, otherTabAction } from "~/web/settings/other.server";
import { loadPersonalTab, personalTabAction } from "~/web/settings/personal.server";
import { loadSystemTab, systemTabAction } from "~/web/settings/system.server";
import { readSettingTab, SETTING_TABS, TAB_LABELS, type SettingTab } from "~/web/settings/tabs";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "设置");

/** The admin tabs are root's (docs/product.md, Settings); anyone else asking for one is refused, not shown personal. */
async function requireTab(
  request: Request,
): Promise<{ user: Awaited<ReturnType<typeof requireUser>>; tab: SettingTab }> {
  const user = await requireUser(request);
  const tab = readSettingTab(new URL(request.url).searchParams.get("tab"));
  if (tab !== "personal" && user.role < ROLE_ROOT) throw new Response(messages.forbidden, { status: 403 });
  return { user, tab };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, tab } = await requireTab(request);
  const tabs = user.role >= ROLE_ROOT ? SETTING_TABS : (["personal"] as const);
  const base = { tabs: tabs.map((t) => ({ tab: t, label: TAB_LABELS[t] })) };
  switch (tab) {
    case "operation":
      return { ...base, tab, operation: await loadOperationTab(user, request) };
    case "system":
      return { ...base, tab, system: await loadSystemTab(user, request) };
    case "other":
      return { ...base, tab, other: await loadOtherTab(user, request) };
    default:
      return { ...base, tab: "personal" as const, personal: await loadPersonalTab(user, request) };
  }
}

/** Every card posts to its own tab's URL with an `intent` naming the card. */
export async function action({ request }: ActionFunctionArgs) {
  const { user, tab } = await requireTab(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  switch (tab) {
    case "operation":
      return operationTabAction(user, intent, form, request);
    case "system":
      return systemTabAction(user, intent, form, request);
    case "other":
      return otherTabAction(user, intent, form, request);
    default:
      return personalTabAction(user, intent, form, request);
  }
}

export default function SettingPage() {
  const page = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{t(TAB_LABELS[page.tab])}</h1>
      {page.tabs.length > 1 ? (
        <nav aria-label={t("设置分类")} className="flex gap-2 border-b border-gray-200 dark:border-gray-700">
          {page.tabs.map(({ tab, label }) => (
            <Link
              key={tab}
              to={tab === "personal" ? "/setting" : `/setting?tab=${tab}`}
              aria-current={page.tab === tab ? "page" : undefined}
              className={`-mb-px border-b-2 px-3 py-2 text-sm ${page.tab === tab ? "border-blue-600 font-semibold text-blue-700 dark:text-blue-300" : "border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-300"}`}
            >
              {t(label)}
            </Link>
          ))}
        </nav>
      ) : null}
      {page.tab === "operation" && "operation" in page ? <OperationSettings data={page.operation} /> : null}
      {page.tab === "system" && "system" in page ? <SystemSettings data={page.system} /> : null}
      {page.tab === "other" && "other" in page ? <OtherSettings data={page.other} /> : null}
      {page.tab === "personal" && "personal" in page ? <PersonalSettings data={page.personal} /> : null}
    </div>
  );
}
