import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ChannelRow } from "~/components/channels/ChannelRow";
import { SchedulePanel } from "~/components/channels/SchedulePanel";
import { ConfirmButton } from "~/components/ConfirmButton";
import { FlashBanner } from "~/components/FlashBanner";
import { Pagination } from "~/components/Pagination";
import { channelTypeName } from "~/domain/channels/catalog";
import { keyCounts } from "~/domain/channels/channel-key-manage.server";
import {
  copyChannel,
  deleteChannel,
  deleteChannels,
  deleteDisabledChannels,
  fixAbilities,
  setChannelStatus,
  updateChannel,
} from "~/domain/channels/channels.server";
import { getChannel, listChannels, searchChannels } from "~/domain/channels/channel-queries.server";
import { refreshChannelBalance } from "~/relay/channel-balance.server";
import { startBalanceRefresh } from "~/relay/channel-schedules.server";
import { readTestAllProgress, startTestAll } from "~/relay/channel-test-all.server";
import { testChannel } from "~/relay/channel-test.server";
import { enqueueJob } from "../../jobs/enqueue";
import { readSchedules } from "../../jobs/schedule-view";
import { listGroupNames } from "~/domain/groups/groups.server";
import { options } from "~/domain/options/store.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { redirectWithFlash } from "~/utils/flash.server";
import { listPageUrl } from "~/utils/list-url";
import { requireRole } from "~/web/guards.server";
import { rememberedListPrefs } from "~/utils/prefs.server";
import { readForm, readId } from "~/utils/edge-input";
import { readPage } from "~/utils/pagination";
import { pageTitle, useT } from "~/components/i18n/locale-context";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "渠道");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const url = new URL(request.url);
  const prefs = await rememberedListPrefs(request, "channel", "page_size", ["id_sort"]);
  const idSort = prefs.flags.id_sort ?? false;
  const filters = {
    keyword: url.searchParams.get("keyword") ?? "",
    group: url.searchParams.get("group") ?? "",
    model: url.searchParams.get("model") ?? "",
  };
  const searching = Boolean(filters.keyword || filters.group || filters.model);
  const { page } = readPage(url);
  const { items, total } = searching
    ? await searchChannels(filters, idSort).then((rows) => ({ items: rows, total: rows.length }))
    : await listChannels(page, prefs.size, idSort);
  const body = {
    channels: items.map((c) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      typeName: channelTypeName(c.type),
      group: c.group,
      status: c.status,
      response_time: c.response_time,
      used_quota: c.used_quota,
      shortfall_quota: c.shortfall_quota,
      balance: c.balance,
      priority: c.priority,
      weight: c.weight,
      other_info: c.other_info,
      keys: keyCounts(c.channel_info),
    })),
    total,
    page: searching ? 0 : page,
    size: searching ? Math.max(1, total) : prefs.size,
    idSort,
    filters,
    groups: listGroupNames(),
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    testAll: await readTestAllProgress(),
    ...(await readSchedules()),
  };
  return data(body, prefs.setCookie ? { headers: { "Set-Cookie": prefs.setCookie } } : undefined);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  // 0 names no row: an intent given a bad id answers "not found" like a missing one.
  const id = readId(form.get("id")) ?? 0;
  const back = listPageUrl(request, "/channel");
  const done = (message: string) => redirectWithFlash(back, { type: "success", message });
  const fail = (message: string) => data({ error: message }, { status: 400 });
  switch (intent) {
    case "enable":
    case "disable": {
      const result = await setChannelStatus(id, intent === "enable" ? 1 : 2);
      return result.ok ? done("操作成功完成！") : fail(result.message);
    }
    case "routing": {
      const result = await updateChannel(id, {
        priority: Number(form.get("priority")),
        weight: Number(form.get("weight")),
      });
      return result.ok ? done("渠道更新成功！") : fail(result.message);
    }
    case "copy": {
      const result = await copyChannel(id);
      return result.ok ? done("渠道复制成功") : fail(result.message);
    }
    case "delete": {
      const result = await deleteChannel(id);
      return result.ok ? done("操作成功完成！") : fail(result.message);
    }
    case "delete-selected": {
      const ids = form
        .getAll("ids")
        .map(readId)
        .filter((n) => n !== undefined);
      if (ids.length === 0) return fail("请先选择要删除的通道！");
      return done(`已删除 ${await deleteChannels(ids)} 个通道！`);
    }
    case "delete-disabled":
      return done(`已删除所有禁用渠道，共计 ${await deleteDisabledChannels()} 个`);
    case "fix":
      return done(`已修复 ${await fixAbilities()} 个通道！`);
    case "test": {
      const channel = await getChannel(id);
      if (!channel) return fail("渠道未找到，请刷新页面后重试。");
      const result = await testChannel(channel);
      return result.success
        ? done(`渠道 ${channel.name} 测试成功，耗时 ${result.time.toFixed(2)} 秒。`)
        : redirectWithFlash(back, { type: "error", message: `渠道 ${channel.name} 测试失败：${result.message}` });
    }
    case "test-all": {
      const started = await startTestAll(() => enqueueJob("channels.test-all"));
      if (!started.ok) return fail(started.message);
      return done("已成功开始测试所有通道，请刷新页面查看结果。");
    }
    case "refresh-balances": {
      const started = await startBalanceRefresh(() => enqueueJob("channels.refresh-balances.now"));
      if (!started.ok) return fail(started.message);
      return done("已开始更新所有通道余额，请刷新页面查看进度。");
    }
    case "balance": {
      const channel = await getChannel(id);
      if (!channel) return fail("渠道未找到，请刷新页面后重试。");
      const result = await refreshChannelBalance(channel);
      return result.ok ? done(`渠道 ${channel.name} 余额更新成功`) : fail(result.message);
    }
    default:
      return fail("未知操作");
  }
}

export default function ChannelPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const running = page.testAll.running || page.balances.running;
  const t = useT();
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("管理渠道")}</h1>
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      <Form method="get" role="search" className="flex w-full flex-wrap items-end gap-2 sm:w-auto">
        <input
          name="keyword"
          defaultValue={page.filters.keyword}
          placeholder={t("搜索渠道的 ID，名称和代理地址 ...")}
          className="input w-full sm:w-56"
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
        <input
          name="model"
          defaultValue={page.filters.model}
          placeholder={t("模型关键字")}
          className="input min-w-0 flex-1 sm:w-40 sm:flex-none"
          aria-label={t("模型", { context: "single" })}
        />
        <button type="submit" className="btn-secondary">
          {t("查询")}
        </button>
      </Form>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/channel/add" className="btn-primary">
          {t("添加渠道")}
        </Link>
        <Form method="post" id="channel-selection" className="hidden" />
        <button type="submit" form="channel-selection" name="intent" value="delete-selected" className="btn-secondary">
          {t("删除所选通道")}
        </button>
        <ConfirmButton
          label={t("删除禁用通道")}
          question={t("确定是否要删除禁用通道？")}
          intent="delete-disabled"
          testId="delete-disabled"
        />
        <Form method="post">
          <button type="submit" name="intent" value="fix" className="btn-secondary">
            {t("修复数据库一致性")}
          </button>
        </Form>
        <Form method="post">
          <button type="submit" name="intent" value="test-all" className="btn-secondary">
            {t("测试所有通道")}
          </button>
        </Form>
        <Form method="post">
          <button type="submit" name="intent" value="refresh-balances" className="btn-secondary">
            {t("更新所有余额")}
          </button>
        </Form>
        <Link to={`?id_sort=${page.idSort ? "false" : "true"}`} className="btn-secondary" data-testid="id-sort">
          {page.idSort ? t("按优先级排序") : t("按 ID 排序")}
        </Link>
      </div>
      <SchedulePanel schedules={page.schedules} />
      {/* While a long run goes, the enhancement script fetches this page again every 2 s and swaps
          this part in (progress and the rows it changes) until the server no longer marks it
          running. Without script a reload shows the same persisted progress. */}
      <div id="channel-live" className="flex flex-col gap-3" data-refresh-ms={running ? "2000" : undefined}>
        {page.testAll.running || page.testAll.finishedAt ? (
          <p className="text-sm text-gray-600 dark:text-gray-300" data-testid="test-all-progress">
            {page.testAll.waitingForWorker
              ? t(
                  "测试所有通道的任务已排队，但还没有后台任务进程接手：请确认 Redis 可用，并且有 Web 进程未设置 WORKERS=off，或已运行 npm run worker。",
                )
              : page.testAll.running
                ? t("正在测试所有通道：{{done}} / {{total}}", { done: page.testAll.done, total: page.testAll.total })
                : t(
                    "上次测试所有通道：共 {{total}} 个，失败 {{failed}} 个，禁用 {{disabled}} 个，启用 {{enabled}} 个",
                    {
                      total: page.testAll.total,
                      failed: page.testAll.failed,
                      disabled: page.testAll.disabled,
                      enabled: page.testAll.enabled,
                    },
                  )}
          </p>
        ) : null}
        {page.balances.running || page.balances.finishedAt ? (
          <p className="text-sm text-gray-600 dark:text-gray-300" data-testid="balance-progress">
            {page.balances.running
              ? t("正在更新所有通道余额：{{done}} / {{total}}", {
                  done: page.balances.done,
                  total: page.balances.total,
                })
              : t("上次更新所有通道余额：共 {{total}} 个，成功 {{updated}} 个", {
                  total: page.balances.total,
                  updated: page.balances.updated,
                })}
          </p>
        ) : null}
        {page.channels.length === 0 ? (
          <p className="card text-sm text-gray-500">{t("暂无渠道")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="card-rows w-full sm:min-w-[960px] border-collapse text-sm" data-testid="channel-table">
              <thead>
                <tr className="border-b border-gray-200 text-left dark:border-gray-700">
                  <th className="p-2">
                    <span className="sr-only">{t("选择")}</span>
                  </th>
                  <th className="p-2">ID</th>
                  <th className="p-2">{t("名称")}</th>
                  <th className="p-2">{t("分组")}</th>
                  <th className="p-2">{t("类型")}</th>
                  <th className="p-2">{t("状态")}</th>
                  <th className="p-2">{t("响应时间")}</th>
                  <th className="p-2">{t("已用/剩余")}</th>
                  <th className="p-2">{t("优先级")}</th>
                  <th className="p-2">{t("权重")}</th>
                  <th className="actions-col p-2">{t("操作")}</th>
                </tr>
              </thead>
              <tbody>
                {page.channels.map((channel) => (
                  <ChannelRow key={channel.id} channel={channel} displayInCurrency={page.displayInCurrency} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <Pagination page={page.page} size={page.size} total={page.total} sizeParam="page_size" />
    </div>
  );
}
