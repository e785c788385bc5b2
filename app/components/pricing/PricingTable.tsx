import { Link } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";
import { StatusTag } from "~/components/StatusTag";

/** A ratio model's prices; the cache lines only when the cache is priced apart from the prompt. */
export type RowPrice =
  | { kind: "price"; perCall: string }
  | {
      kind: "ratio";
      prompt1K: string;
      completion1K: string;
      prompt1M: string;
      completion1M: string;
      cached1K?: string;
      cacheWrite1K?: string;
    };

export type PricingRow = {
  name: string;
  /** Whether the viewed group reaches the model. */
  available: boolean;
  quotaType: number;
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  createCacheRatio: number;
  groupRatio: number;
  groups: string[];
  price: RowPrice;
};

/** The form the row checkboxes belong to (they sit in the table, outside it). */
export const COPY_FORM_ID = "pricing-copy";

/** A link to the page in another group, keeping the filter. */
export function groupHref(group: string, query: string): string {
  const params = new URLSearchParams({ group });
  if (query) params.set("q", query);
  return `/pricing?${params.toString()}`;
}

function PriceCell({ price }: { price: RowPrice }) {
  const t = useT();
  if (price.kind === "price")
    return <span data-testid="price-per-call">{t("模型价格：{{price}} / 次", { price: price.perCall })}</span>;
  return (
    <div className="flex flex-col">
      <span data-testid="price-prompt">{t("提示 {{price}} / 1K tokens", { price: price.prompt1K })}</span>
      <span data-testid="price-completion">{t("补全 {{price}} / 1K tokens", { price: price.completion1K })}</span>
      {price.cached1K === undefined ? null : (
        <span data-testid="price-cached">{t("缓存读取 {{price}} / 1K tokens", { price: price.cached1K })}</span>
      )}
      {price.cacheWrite1K === undefined ? null : (
        <span data-testid="price-cache-write">
          {t("缓存写入 {{price}} / 1K tokens", { price: price.cacheWrite1K })}
        </span>
      )}
      <span className="text-xs text-gray-500 dark:text-gray-400">
        {t("每 1M tokens：提示 {{prompt}}，补全 {{completion}}", {
          prompt: price.prompt1M,
          completion: price.completion1M,
        })}
      </span>
    </div>
  );
}

type Props = { rows: PricingRow[]; group: string; query: string; usable: Set<string>; selected: Set<string> };

export function PricingTable({ rows, group, query, usable, selected }: Props) {
  const t = useT();
  if (rows.length === 0) return <p className="card text-sm text-gray-500">{t("暂无可用模型")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[760px] border-collapse text-sm" data-testid="pricing-table">
        <thead>
          <tr className="border-b border-gray-200 text-left dark:border-gray-700">
            <th className="p-2">
              <span className="sr-only">{t("选择")}</span>
            </th>
            <th className="p-2">{t("可用性")}</th>
            <th className="p-2">{t("模型名称")}</th>
            <th className="p-2">{t("计费类型")}</th>
            <th className="p-2">{t("可用分组")}</th>
            <th className="p-2">{t("倍率")}</th>
            <th className="p-2">{t("模型价格")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.name}
              className={`border-b border-gray-100 align-top dark:border-gray-800 ${row.available ? "" : "text-gray-400"}`}
              data-testid="pricing-row"
              data-model={row.name}
            >
              <td className="p-2">
                <input
                  type="checkbox"
                  form={COPY_FORM_ID}
                  name="model"
                  value={row.name}
                  defaultChecked={selected.has(row.name)}
                  aria-label={t("选择 {{name}}", { name: row.name })}
                />
              </td>
              <td className="p-2">
                {row.available ? (
                  <StatusTag tone="green" title={t("您的分组可以使用该模型")}>
                    {t("可用")}
                  </StatusTag>
                ) : (
                  <StatusTag tone="yellow" title={t("您的分组无权使用该模型")}>
                    {t("不可用")}
                  </StatusTag>
                )}
              </td>
              <td className="p-2 font-mono">{row.name}</td>
              <td className="p-2">
                {row.quotaType === 1 ? (
                  <StatusTag tone="blue">{t("按次计费")}</StatusTag>
                ) : (
                  <StatusTag tone="lime">{t("按量计费")}</StatusTag>
                )}
              </td>
              <td className="p-2">
                <div className="flex flex-wrap gap-1">
                  {row.groups
                    .filter((g) => usable.has(g))
                    .map((g) =>
                      g === group ? (
                        <span
                          key={g}
                          aria-current="true"
                          className="rounded bg-blue-600 px-1.5 py-0.5 text-xs text-white"
                        >
                          {g}
                        </span>
                      ) : (
                        <Link
                          key={g}
                          to={groupHref(g, query)}
                          className="rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-800 hover:underline dark:bg-blue-900 dark:text-blue-200"
                        >
                          {g}
                        </Link>
                      ),
                    )}
                </div>
              </td>
              <td className="whitespace-nowrap p-2">
                <div>{t("模型倍率：{{ratio}}", { ratio: row.quotaType === 0 ? row.modelRatio : t("无") })}</div>
                <div>{t("补全倍率：{{ratio}}", { ratio: row.quotaType === 0 ? row.completionRatio : t("无") })}</div>
                {row.quotaType === 0 && row.cacheRatio !== 1 ? (
                  <div>{t("缓存倍率：{{ratio}}", { ratio: row.cacheRatio })}</div>
                ) : null}
                {row.quotaType === 0 && row.createCacheRatio !== 1 ? (
                  <div>{t("缓存创建倍率：{{ratio}}", { ratio: row.createCacheRatio })}</div>
                ) : null}
                <div>{t("分组倍率：{{ratio}}", { ratio: row.groupRatio })}</div>
              </td>
              <td className="whitespace-nowrap p-2">
                <PriceCell price={row.price} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
