import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { Pagination } from "~/components/Pagination";
import { LogTable } from "~/components/logs/LogTable";
import { listLogs, logStat, readLogFilter, userCardsOf } from "~/domain/logs/logs.server";
import { options } from "~/domain/options/store.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { renderQuota } from "~/utils/format";
import { requireUser } from "~/web/guards.server";
import { readPage } from "~/utils/pagination";
import { rememberedListPrefs } from "~/utils/prefs.server";
import { parseWallClock } from "~/utils/time-zone";
import { requestTimeZone } from "~/utils/time-zone.server";

export const meta: MetaFunction = () => [{ title: "日志" }];

/** A datetime-local field, in the zone the page shows its times in → unix seconds. */
function toSeconds(value: string | null, timeZone: string): string {
  if (!value) return "";
  const seconds = parseWallClock(value, timeZone);
  return Number.isNaN(seconds) ? "" : String(seconds);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const isAdmin = user.role >= ROLE_ADMIN;
  const url = new URL(request.url);
  const q = url.searchParams;
  const prefs = await rememberedListPrefs(request, "log", "size");
  const { page } = readPage(url);
  // The form's fields map onto the log API's parameters, so the page and /api/log agree.
  const params = new URLSearchParams({
    type: q.get("type") ?? "0",
    token_name: q.get("token_name") ?? "",
    model_name: q.get("model_name") ?? "",
    start_timestamp: toSeconds(q.get("start"), requestTimeZone(request)),
    end_timestamp: toSeconds(q.get("end"), requestTimeZone(request)),
    username: q.get("username") ?? "",
    channel: q.get("channel") ?? "",
  });
  const filter = readLogFilter(params, isAdmin ? "all" : { userId: user.id });
  const [{ items, total }, stat] = await Promise.all([listLogs(filter, page + 1, prefs.size, isAdmin), logStat(filter)]);
  const users = isAdmin ? await userCardsOf(items.map((i) => i.user_id)) : {};
  const body = {
    logs: items,
    total,
    page,
    size: prefs.size,
    stat,
    users,
    isAdmin,
    filters: Object.fromEntries(["type", "token_name", "model_name", "start", "end", "username", "channel"].map((k) => [k, q.get(k) ?? ""])),
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
  return data(body, prefs.setCookie ? { headers: { "Set-Cookie": prefs.setCookie } } : undefined);
}

export default function LogPage() {
  const page = useLoaderData<typeof loader>();
  const f = page.filters;
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">使用日志</h1>
      <div className="flex flex-wrap gap-2 text-sm" data-testid="log-stat">
        <span className="rounded bg-blue-100 px-2 py-1 text-blue-900 dark:bg-blue-900 dark:text-blue-100">消耗额度：{renderQuota(page.stat.quota, page.displayInCurrency, page.quotaPerUnit)}</span>
        <span className="rounded bg-pink-100 px-2 py-1 text-pink-900 dark:bg-pink-900 dark:text-pink-100">RPM：{page.stat.rpm}</span>
        <span className="rounded bg-gray-200 px-2 py-1 dark:bg-gray-700">TPM：{page.stat.tpm}</span>
      </div>
      <Form method="get" className="card grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4" role="search">
        <label className="text-sm">令牌名称<input name="token_name" defaultValue={f.token_name} className="input" /></label>
        <label className="text-sm">模型名称<input name="model_name" defaultValue={f.model_name} className="input" /></label>
        <label className="text-sm">起始时间<input type="datetime-local" name="start" defaultValue={f.start} className="input" /></label>
        <label className="text-sm">结束时间<input type="datetime-local" name="end" defaultValue={f.end} className="input" /></label>
        {page.isAdmin ? <label className="text-sm">渠道 ID<input name="channel" inputMode="numeric" defaultValue={f.channel} className="input" /></label> : null}
        {page.isAdmin ? <label className="text-sm">用户名称<input name="username" defaultValue={f.username} className="input" /></label> : null}
        <label className="text-sm">
          日志类型
          <select name="type" defaultValue={f.type || "0"} className="input">
            <option value="0">全部</option>
            <option value="1">充值</option>
            <option value="2">消费</option>
            <option value="3">管理</option>
            <option value="4">系统</option>
          </select>
        </label>
        <div className="flex items-end">
          <button type="submit" className="btn-primary">查询</button>
        </div>
      </Form>
      <LogTable logs={page.logs} isAdmin={page.isAdmin} users={page.users} displayInCurrency={page.displayInCurrency} quotaPerUnit={page.quotaPerUnit} />
      <Pagination page={page.page} size={page.size} total={page.total} />
    </div>
  );
}
