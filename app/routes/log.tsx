import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { filterQuery, LogPager } from "~/components/logs/LogPager";
import { LogTable } from "~/components/logs/LogTable";
import { logStat } from "~/domain/logs/log-stat.server";
import { listLogs, readLogSlice, userCardsOf } from "~/domain/logs/logs.server";
import { options } from "~/domain/options/store.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { renderQuota } from "~/utils/format";
import { requireUser } from "~/web/guards.server";
import { pageLogFilter } from "~/web/log-filters.server";
import { readPage } from "~/utils/pagination";
import { rememberedListPrefs } from "~/utils/prefs.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "日志");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const isAdmin = user.role >= ROLE_ADMIN;
  const url = new URL(request.url);
  const prefs = await rememberedListPrefs(request, "log", "size");
  const { page } = readPage(url);
  const { filter, values } = pageLogFilter(request, isAdmin ? "all" : { userId: user.id });
  // Pages move by cursor (the pager's links); a `p` from an older link still works, bounded.
  const [list, stat] = await Promise.all([
    listLogs(filter, readLogSlice(url.searchParams, page + 1, prefs.size), isAdmin),
    logStat(filter),
  ]);
  const users = isAdmin ? await userCardsOf(list.items.map((i) => i.user_id)) : {};
  const body = {
    logs: list.items,
    total: list.total,
    totalExact: list.totalExact,
    older: list.older ?? "",
    newer: list.newer ?? "",
    tooDeep: list.tooDeep ?? false,
    size: prefs.size,
    stat,
    users,
    isAdmin,
    filters: values,
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
  return data(body, prefs.setCookie ? { headers: { "Set-Cookie": prefs.setCookie } } : undefined);
}

export default function LogPage() {
  const page = useLoaderData<typeof loader>();
  const t = useT();
  const f = page.filters;
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("使用日志")}</h1>
      <div className="flex flex-wrap gap-2 text-sm" data-testid="log-stat">
        <span className="rounded bg-blue-100 px-2 py-1 text-blue-900 dark:bg-blue-900 dark:text-blue-100">
          {t("消耗额度：{{quota}}", { quota: renderQuota(page.stat.quota, page.displayInCurrency, page.quotaPerUnit) })}
        </span>
        <span className="rounded bg-pink-100 px-2 py-1 text-pink-900 dark:bg-pink-900 dark:text-pink-100">
          {t("RPM：{{rpm}}", { rpm: page.stat.rpm })}
        </span>
        <span className="rounded bg-gray-200 px-2 py-1 dark:bg-gray-700">
          {t("TPM：{{tpm}}", { tpm: page.stat.tpm })}
        </span>
      </div>
      <Form method="get" className="card grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4" role="search">
        <label className="text-sm">
          {t("令牌名称")}
          <input name="token_name" defaultValue={f.token_name} className="input" />
        </label>
        <label className="text-sm">
          {t("模型名称")}
          <input name="model_name" defaultValue={f.model_name} className="input" />
        </label>
        <label className="text-sm">
          {t("起始时间")}
          <input type="datetime-local" name="start" defaultValue={f.start} className="input" />
        </label>
        <label className="text-sm">
          {t("结束时间")}
          <input type="datetime-local" name="end" defaultValue={f.end} className="input" />
        </label>
        {page.isAdmin ? (
          <label className="text-sm">
            {t("渠道 ID")}
            <input name="channel" inputMode="numeric" defaultValue={f.channel} className="input" />
          </label>
        ) : null}
        {page.isAdmin ? (
          <label className="text-sm">
            {t("用户名称")}
            <input name="username" defaultValue={f.username} className="input" />
          </label>
        ) : null}
        <label className="text-sm">
          {t("日志类型")}
          <select name="type" defaultValue={f.type || "0"} className="input">
            <option value="0">{t("全部")}</option>
            <option value="1">{t("充值")}</option>
            <option value="2">{t("消费")}</option>
            <option value="3">{t("管理")}</option>
            <option value="4">{t("系统")}</option>
          </select>
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className="btn-primary">
            {t("查询")}
          </button>
          {/* A plain download link: the session cookie is the credential, no JavaScript needed. */}
          <a href={`/log/export.csv?${filterQuery(f)}`} download className="btn-secondary" data-testid="log-export">
            {t("导出 CSV")}
          </a>
        </div>
      </Form>
      <LogTable
        logs={page.logs}
        isAdmin={page.isAdmin}
        users={page.users}
        displayInCurrency={page.displayInCurrency}
        quotaPerUnit={page.quotaPerUnit}
      />
      <LogPager
        total={page.total}
        totalExact={page.totalExact}
        older={page.older}
        newer={page.newer}
        tooDeep={page.tooDeep}
        size={page.size}
        filters={f}
      />
    </div>
  );
}
