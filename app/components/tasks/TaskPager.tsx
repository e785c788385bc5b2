import { Link } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";

/** Previous/next links over a 0-based `p`, keeping the filter fields (plain GET links, no JavaScript needed). */
export function TaskPager({
  page,
  hasMore,
  filters,
}: {
  page: number;
  hasMore: boolean;
  filters: Record<string, string>;
}) {
  const t = useT();
  const hrefFor = (p: number) => {
    const next = new URLSearchParams(Object.entries(filters));
    next.set("p", String(p));
    return `?${next.toString()}`;
  };
  return (
    <nav className="mt-3 flex items-center gap-3 text-sm" aria-label={t("分页")}>
      {page > 0 ? (
        <Link to={hrefFor(page - 1)} className="btn-secondary">
          {t("上一页")}
        </Link>
      ) : null}
      <span>{t("第 {{page}} 页", { page: page + 1 })}</span>
      {hasMore ? (
        <Link to={hrefFor(page + 1)} className="btn-secondary">
          {t("下一页")}
        </Link>
      ) : null}
    </nav>
  );
}

/** A progress bar from the stored "NN%" text. */
export function ProgressBar({ progress, failed }: { progress: string; failed?: boolean }) {
  const t = useT();
  const value = Math.max(0, Math.min(100, Number.parseInt(progress, 10) || 0));
  return (
    <div className="flex min-w-20 items-center gap-1" title={progress || "0%"}>
      <div
        className="h-2 w-12 overflow-hidden rounded bg-gray-200 dark:bg-gray-700"
        role="progressbar"
        aria-valuenow={value}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label={t("进度")}
      >
        <div
          className={`h-full ${failed ? "bg-red-500" : value >= 100 ? "bg-green-500" : "bg-blue-500"}`}
          style={{ width: `${value}%` }}
        />
      </div>
      <span className="text-xs">{progress || "0%"}</span>
    </div>
  );
}

/** Seconds between two times, red past a minute (the product's task duration colour). */
export function Duration({ seconds }: { seconds: number | undefined }) {
  const t = useT();
  if (seconds === undefined || seconds < 0) return <span>-</span>;
  const text = t("{{seconds}} 秒", { seconds: seconds.toFixed(1) });
  return <span className={seconds > 60 ? "text-red-600" : "text-green-700 dark:text-green-400"}>{text}</span>;
}
