import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { SERIES_COLORS, StackedBarChart } from "~/components/charts/StackedBarChart";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";
import { options } from "~/domain/options/store.server";
import {
  GRANULARITIES,
  GRANULARITY_LABELS,
  OTHER_MODELS,
  readGranularity,
  toSeries,
  type Granularity,
} from "~/domain/usage/buckets";
import {
  ADMIN_MAX_RANGE,
  findUserIdByName,
  readHourlyUsage,
  readUsageRange,
  SELF_MAX_RANGE,
  type UsageScope,
} from "~/domain/usage/usage-data.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { compactNumber, renderQuota } from "~/utils/format";
import { formatTimestamp, parseWallClock } from "~/utils/time-zone";
import { requestTimeZone } from "~/utils/time-zone.server";
import { requireUser } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "数据看板");

const HOUR = 3600;
/** Quick ranges, each with the granularity that reads best for it. */
const PRESETS = {
  "24h": { label: "近 24 小时", seconds: 24 * HOUR, granularity: "hour" },
  "7d": { label: "近 7 天", seconds: 7 * 24 * HOUR, granularity: "day" },
  "30d": { label: "近 30 天", seconds: 30 * 24 * HOUR, granularity: "day" },
} as const satisfies Record<string, { label: string; seconds: number; granularity: Granularity }>;
type Preset = keyof typeof PRESETS;

const DEFAULT_SPAN: Record<Granularity, number> = { hour: 24 * HOUR, day: 7 * 24 * HOUR, week: 30 * 24 * HOUR };

/** "YYYY-MM-DDTHH:mm" for a datetime-local field, in the viewer's zone. */
const toFieldValue = (seconds: number, timeZone: string) =>
  formatTimestamp(seconds, timeZone).slice(0, 16).replace(" ", "T");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const isAdmin = user.role >= ROLE_ADMIN;
  if (!options.bool("DataExportEnabled")) return { enabled: false as const, isAdmin };
  const timeZone = requestTimeZone(request);
  const q = new URL(request.url).searchParams;
  const now = Math.floor(Date.now() / 1000);
  const presetName = q.get("preset");
  const preset = presetName && presetName in PRESETS ? PRESETS[presetName as Preset] : undefined;
  const fallback = readGranularity(options.string("DataExportDefaultTime"), "hour");
  const granularity = readGranularity(q.get("granularity"), preset?.granularity ?? fallback);
  const typed = (name: string, roundUp = false) => {
    const text = q.get(name)?.trim();
    if (!text || preset) return undefined;
    const seconds = parseWallClock(text, timeZone);
    if (Number.isNaN(seconds)) return "invalid";
    // A datetime-local field says minutes: an end time covers its whole minute, so "up to 08:30"
    // includes the calls made at 08:30:15 (the page just showed them).
    return String(roundUp && !/:\d{2}:\d{2}/.test(text) ? seconds + 59 : seconds);
  };
  const endText = typed("end", true) ?? String(now);
  const startText = typed("start") ?? String(Number(endText) - (preset?.seconds ?? DEFAULT_SPAN[granularity]));
  const username = isAdmin ? (q.get("username")?.trim() ?? "") : "";
  const range = readUsageRange(
    startText === "invalid" ? "x" : startText,
    endText === "invalid" ? "x" : endText,
    isAdmin ? ADMIN_MAX_RANGE : SELF_MAX_RANGE,
    now,
  );
  const base = {
    enabled: true as const,
    isAdmin,
    granularity,
    username,
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
  if (!range.ok) {
    return {
      ...base,
      error: range.message,
      start: q.get("start") ?? "",
      end: q.get("end") ?? "",
      series: toSeries([], granularity, timeZone),
    };
  }
  let scope: UsageScope = isAdmin ? { kind: "all" } : { kind: "user", userId: user.id };
  let error: string | undefined;
  if (username) {
    const userId = await findUserIdByName(username);
    if (userId === undefined) error = `用户 ${username} 不存在`;
    scope = { kind: "user", userId: userId ?? -1 };
  }
  const rows = await readHourlyUsage(scope, range.value);
  return {
    ...base,
    error,
    start: toFieldValue(range.value.start, timeZone),
    end: toFieldValue(range.value.end, timeZone),
    series: toSeries(rows, granularity, timeZone),
  };
}

export default function DetailPage() {
  const page = useLoaderData<typeof loader>();
  const t = useT();
  // The loader's error is a finished Chinese message (a range refusal, an unknown user).
  const message = useMessage();
  if (!page.enabled) {
    return (
      <div className="card max-w-lg">
        <h1 className="text-xl font-bold">{t("数据看板")}</h1>
        {/* Whole sentences as keys: English needs a space between them where Chinese has none. */}
        <p className="mt-2 text-sm">
          {page.isAdmin
            ? t("数据看板未启用。超级管理员可在 运营设置 → 数据看板 中开启。")
            : t("数据看板未启用。请联系管理员开启。")}
        </p>
      </div>
    );
  }
  const quota = (n: number) => renderQuota(n, page.displayInCurrency, page.quotaPerUnit);
  const { series } = page;
  // The folded series is named 其他 by the domain: that one name is the page's word, the rest are model names.
  const colored = series.models.map((m, i) => ({
    ...m,
    name: m.name === OTHER_MODELS ? t(OTHER_MODELS) : m.name,
    color: SERIES_COLORS[Math.min(i, SERIES_COLORS.length - 1)]!,
  }));
  const charts = [
    { title: t("额度消耗"), metric: "quota", format: quota },
    { title: t("请求次数"), metric: "count", format: compactNumber },
    { title: t("Token 消耗"), metric: "token_used", format: compactNumber },
  ] as const;
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">{t("数据看板")}</h1>
      <Form method="get" className="card grid grid-cols-2 items-end gap-2 sm:flex sm:flex-wrap" role="search">
        <label className="col-span-2 text-sm">
          {t("起始时间")}
          <input type="datetime-local" name="start" defaultValue={page.start} className="input" />
        </label>
        <label className="col-span-2 text-sm">
          {t("结束时间")}
          <input type="datetime-local" name="end" defaultValue={page.end} className="input" />
        </label>
        <label className="text-sm">
          {t("时间粒度")}
          <select name="granularity" defaultValue={page.granularity} className="input">
            {GRANULARITIES.map((g) => (
              <option key={g} value={g}>
                {t(GRANULARITY_LABELS[g])}
              </option>
            ))}
          </select>
        </label>
        {page.isAdmin ? (
          <label className="text-sm">
            {t("用户名称")}
            <input name="username" defaultValue={page.username} className="input" placeholder={t("全部用户")} />
          </label>
        ) : null}
        <button type="submit" className="btn-primary">
          {t("查询")}
        </button>
        <span className="flex flex-wrap gap-2 self-center text-sm sm:self-end sm:pb-2">
          {Object.entries(PRESETS).map(([name, p]) => (
            <Link
              key={name}
              to={`?preset=${name}${page.username ? `&username=${encodeURIComponent(page.username)}` : ""}`}
              className="text-blue-600 hover:underline dark:text-blue-400"
            >
              {t(p.label)}
            </Link>
          ))}
        </span>
      </Form>
      {page.error ? (
        <p role="alert" className="field-error">
          {message(page.error)}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2 text-sm" data-testid="detail-totals">
        <span className="rounded bg-blue-100 px-2 py-1 text-blue-900 dark:bg-blue-900 dark:text-blue-100">
          {t("消耗额度：{{quota}}", { quota: quota(series.totals.quota) })}
        </span>
        <span className="rounded bg-pink-100 px-2 py-1 text-pink-900 dark:bg-pink-900 dark:text-pink-100">
          {t("请求次数：{{count}}", { count: series.totals.count })}
        </span>
        <span className="rounded bg-gray-200 px-2 py-1 dark:bg-gray-700">
          {t("Token 消耗：{{tokens}}", { tokens: series.totals.token_used })}
        </span>
      </div>
      {series.buckets.length === 0 ? (
        <p className="card text-sm text-gray-500">{t("所选时间段内没有使用记录。")}</p>
      ) : (
        <>
          <ul className="flex flex-wrap gap-3 text-sm" aria-label={t("图例")}>
            {colored.map((m) => (
              <li key={m.name} className="flex items-center gap-1">
                <span aria-hidden className="inline-block h-3 w-3 rounded-sm" style={{ background: m.color }} />
                {m.name}
              </li>
            ))}
          </ul>
          <div className="grid gap-3 xl:grid-cols-2">
            {charts.map((c) => (
              <section key={c.metric} className="card">
                <h2 className="mb-2 font-semibold">{c.title}</h2>
                <StackedBarChart
                  title={c.title}
                  buckets={series.buckets}
                  series={colored.map((m) => ({ name: m.name, color: m.color, values: m.byBucket[c.metric] }))}
                  format={c.format}
                />
              </section>
            ))}
            <section className="card overflow-x-auto">
              <h2 className="mb-2 font-semibold">{t("模型用量")}</h2>
              <table className="w-full text-sm [&_:is(th,td)]:py-0.5 [&_:is(th,td)]:pr-3" data-testid="detail-models">
                <thead>
                  <tr className="text-left">
                    <th className="whitespace-nowrap">{t("模型", { context: "single" })}</th>
                    <th className="whitespace-nowrap">{t("请求次数")}</th>
                    <th className="whitespace-nowrap">Token</th>
                    <th className="whitespace-nowrap">{t("消耗额度")}</th>
                    <th className="whitespace-nowrap">{t("占比")}</th>
                  </tr>
                </thead>
                <tbody>
                  {colored.map((m) => (
                    <tr key={m.name}>
                      <td>{m.name}</td>
                      <td>{m.count}</td>
                      <td>{m.token_used}</td>
                      <td>{quota(m.quota)}</td>
                      <td>
                        {series.totals.quota > 0 ? `${((m.quota / series.totals.quota) * 100).toFixed(1)}%` : "-"}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </div>
          <details className="card">
            <summary className="cursor-pointer font-semibold">{t("按时间段的明细（表格）")}</summary>
            <div className="mt-2 overflow-x-auto">
              <table className="w-full text-sm [&_:is(th,td)]:py-0.5 [&_:is(th,td)]:pr-3" data-testid="detail-buckets">
                <thead>
                  <tr className="text-left">
                    <th className="whitespace-nowrap">{t("时间")}</th>
                    <th className="whitespace-nowrap">{t("模型", { context: "single" })}</th>
                    <th className="whitespace-nowrap">{t("请求次数")}</th>
                    <th className="whitespace-nowrap">Token</th>
                    <th className="whitespace-nowrap">{t("消耗额度")}</th>
                  </tr>
                </thead>
                <tbody>
                  {series.buckets.flatMap((bucket, i) =>
                    colored
                      .filter((m) => m.byBucket.count[i]! > 0 || m.byBucket.quota[i]! > 0)
                      .map((m) => (
                        <tr key={`${bucket}-${m.name}`}>
                          <td className="whitespace-nowrap">{bucket}</td>
                          <td>{m.name}</td>
                          <td>{m.byBucket.count[i]}</td>
                          <td>{m.byBucket.token_used[i]}</td>
                          <td>{quota(m.byBucket.quota[i]!)}</td>
                        </tr>
                      )),
                  )}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </div>
  );
}
