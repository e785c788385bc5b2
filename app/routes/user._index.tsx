import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { Pagination } from "~/components/Pagination";
import { UserTable, type UserRow } from "~/components/users/UserTable";
import { listGroupNames } from "~/domain/groups/groups.server";
import { options } from "~/domain/options/store.server";
import { addQuotaConsoleSchema } from "~/domain/users/admin-console-form";
import { userFields } from "~/domain/users/admin-input";
import { MANAGE_ACTIONS, rowOperations, type ManageAction } from "~/domain/users/admin-rules";
import { editUser, listUsers, searchUsersPage } from "~/domain/users/admin.server";
import { manageUser } from "~/domain/users/manage.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { messages } from "~/messages";
import { readForm, readId } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { listPageUrl } from "~/utils/list-url";
import { readPage } from "~/utils/pagination";
import { rememberedListPrefs } from "~/utils/prefs.server";
import { requireRole } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "管理用户");

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireRole(request, ROLE_ADMIN);
  const url = new URL(request.url);
  const prefs = await rememberedListPrefs(request, "user", "page_size");
  const filters = { keyword: url.searchParams.get("keyword") ?? "", group: url.searchParams.get("group") ?? "" };
  const { page } = readPage(url);
  const { items, total } =
    filters.keyword.trim() || filters.group.trim()
      ? await searchUsersPage(filters.keyword, filters.group, page, prefs.size)
      : await listUsers(page, prefs.size);
  const users: UserRow[] = items.map((u) => ({
    id: u.id,
    username: u.username,
    display_name: u.display_name,
    group: u.group,
    quota: u.quota,
    used_quota: u.used_quota,
    request_count: u.request_count,
    role: u.role,
    status: u.status,
    deregistered: u.deleted_at !== null,
    inviter_id: u.inviter_id,
    ...rowOperations(actor, u),
  }));
  const body = {
    users,
    total,
    page,
    size: prefs.size,
    filters,
    groups: listGroupNames(),
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
  return data(body, prefs.setCookie ? { headers: { "Set-Cookie": prefs.setCookie } } : undefined);
}

/** The list the action came from (its query kept, Remix's `index` marker dropped). */
function listUrl(request: Request): string {
  return listPageUrl(request, "/user");
}

const isManageAction = (intent: string): intent is ManageAction =>
  (MANAGE_ACTIONS as readonly string[]).includes(intent);

/** Row operations and 添加额度; every one re-checks the signed-in admin's rights in the domain. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, ROLE_ADMIN);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  // 0 names no row: a bad id answers "not found" like a missing one.
  const id = readId(form.get("id")) ?? 0;
  const fail = (message: string) => data({ error: message }, { status: 400 });
  if (isManageAction(intent)) {
    const result = await manageUser(actor, id, intent);
    return result.ok
      ? redirectWithFlash(listUrl(request), { type: "success", message: messages.operationDone })
      : fail(result.message);
  }
  if (intent === "add-quota") {
    const submission = parseWithZod(form, { schema: addQuotaConsoleSchema });
    if (submission.status !== "success") return fail(submission.error?.quota_delta?.[0] ?? userFields.quotaMessage);
    const result = await editUser(actor, { id, quota_delta: submission.value.quota_delta });
    return result.ok
      ? redirectWithFlash(listUrl(request), { type: "success", message: messages.userUpdated })
      : fail(result.message);
  }
  return fail("未知操作");
}

export default function UserPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("管理用户")}</h1>
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      <div className="flex flex-wrap items-end gap-2">
        <Form method="get" role="search" className="flex w-full flex-wrap items-end gap-2 sm:w-auto">
          <input
            name="keyword"
            defaultValue={page.filters.keyword}
            placeholder={t("搜索用户的 ID，用户名，显示名称，以及邮箱地址 ...")}
            className="input w-full sm:w-72"
            aria-label={t("关键字")}
          />
          <select name="group" defaultValue={page.filters.group} className="input w-36" aria-label={t("分组")}>
            <option value="">{t("全部分组")}</option>
            {page.groups.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
          <button type="submit" className="btn-secondary">
            {t("查询")}
          </button>
        </Form>
        <Link to="/user/add" className="btn-primary ml-auto">
          {t("添加用户")}
        </Link>
      </div>
      <UserTable users={page.users} displayInCurrency={page.displayInCurrency} quotaPerUnit={page.quotaPerUnit} />
      <Pagination page={page.page} size={page.size} total={page.total} sizeParam="page_size" />
    </div>
  );
}
