import { Form, Link, useSearchParams } from "@remix-run/react";
import { PAGE_SIZES } from "~/utils/pagination";
import { useT } from "~/components/i18n/locale-context";

/** Page links and a page-size picker as plain GET navigation (query strings), JS optional. */
export function Pagination({
  page,
  size,
  total,
  sizeParam = "size",
}: {
  page: number;
  size: number;
  total: number;
  sizeParam?: string;
}) {
  const [params] = useSearchParams();
  const t = useT();
  const pages = Math.max(1, Math.ceil(total / size));
  const hrefFor = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("p", String(p));
    return `?${next.toString()}`;
  };
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
      <span>{t("共 {{total}} 条", { total })}</span>
      {page > 0 ? (
        <Link to={hrefFor(page - 1)} className="btn-secondary">
          {t("上一页")}
        </Link>
      ) : null}
      <span>{t("第 {{page}} / {{pages}} 页", { page: page + 1, pages })}</span>
      {page + 1 < pages ? (
        <Link to={hrefFor(page + 1)} className="btn-secondary">
          {t("下一页")}
        </Link>
      ) : null}
      <Form method="get" className="flex items-center gap-1">
        {[...params.entries()]
          .filter(([k]) => k !== sizeParam && k !== "p")
          .map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
        <label htmlFor="page-size">{t("每页")}</label>
        <select id="page-size" name={sizeParam} defaultValue={size} className="input w-auto">
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
