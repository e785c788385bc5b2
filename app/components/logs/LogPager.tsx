import { Form, Link } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";
import { PAGE_SIZES } from "~/utils/pagination";

type Props = {
  total: number;
  totalExact: boolean;
  older: string;
  newer: string;
  tooDeep: boolean;
  size: number;
  filters: Record<string, string>;
};

/** 1234567 → "1,234,567" (the same on the server and in the browser, whatever their locale). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** The filters as a query string (empty fields left out), for the pager's and the export's links. */
export function filterQuery(filters: Record<string, string>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) params.set(k, v);
  return params.toString();
}

/**
 * The log's pager: newer/older links by cursor (the same cost at any depth, decision 024), and
 * the number of matching rows, exact when small, else the database's estimate, marked as such.
 */
export function LogPager({ total, totalExact, older, newer, tooDeep, size, filters }: Props) {
  const t = useT();
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm" data-testid="log-pager">
      <span data-testid="log-total">
        {totalExact ? t("共 {{total}} 条", { total }) : t("约 {{total}} 条（估算）", { total: grouped(total) })}
      </span>
      {newer ? (
        <Link to={`?${filterQuery(filters)}`} className="btn-secondary">
          {t("最新")}
        </Link>
      ) : null}
      {newer ? (
        <Link to={`?${filterQuery(filters, { after: newer })}`} className="btn-secondary" rel="prev">
          {t("上一页")}
        </Link>
      ) : null}
      {older ? (
        <Link to={`?${filterQuery(filters, { before: older })}`} className="btn-secondary" rel="next">
          {t("下一页")}
        </Link>
      ) : null}
      {tooDeep ? (
        <span className="text-red-700 dark:text-red-300">{t("页码过深：请用“下一页”翻页或缩小筛选范围")}</span>
      ) : null}
      <Form method="get" className="flex items-center gap-1">
        {Object.entries(filters)
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
        <label htmlFor="page-size">{t("每页")}</label>
        <select id="page-size" name="size" defaultValue={size} className="input w-auto">
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-secondary">
          {t("应用")}
        </button>
      </Form>
    </div>
  );
}
