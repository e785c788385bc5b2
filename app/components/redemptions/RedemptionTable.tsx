import { Link } from "@remix-run/react";
import { ConfirmButton } from "~/components/ConfirmButton";
import { RowActionForm } from "~/components/RowActionForm";
import { StatusTag } from "~/components/StatusTag";
import { useT, type PageText } from "~/components/i18n/locale-context";
import { useTimeZone } from "~/components/useTimeZone";
import { REDEMPTION_STATUS, redemptionStatusLabel } from "~/domain/redemptions/redemption-constants";
import { renderQuota } from "~/utils/format";
import { formatTimestamp } from "~/utils/time-zone";
import { CopyLinesButton } from "./CopyLinesButton";

export type RedemptionRow = {
  id: number;
  name: string;
  key: string;
  status: number;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
};

type Props = {
  rows: RedemptionRow[];
  redeemers: Record<number, string>;
  displayInCurrency: boolean;
  quotaPerUnit: number;
  /** The form the row checkboxes belong to (copy selected). */
  selectionForm: string;
};

export function redeemerLabel(
  row: Pick<RedemptionRow, "used_user_id">,
  redeemers: Record<number, string>,
  t: PageText,
): string {
  if (!row.used_user_id) return t("无");
  const name = redeemers[row.used_user_id];
  return name ? t("{{label}}（{{detail}}）", { label: row.used_user_id, detail: name }) : String(row.used_user_id);
}

export function RedemptionTable({ rows, redeemers, displayInCurrency, quotaPerUnit, selectionForm }: Props) {
  const timeZone = useTimeZone();
  const t = useT();
  if (rows.length === 0) return <p className="card text-sm text-gray-500">{t("暂无兑换码")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="card-rows w-full sm:min-w-[760px] border-collapse text-sm" data-testid="redemption-table">
        <thead>
          <tr className="border-b border-gray-200 text-left dark:border-gray-700">
            <th className="p-2">
              {/* Select all: needs the enhancement script, so hidden without it. */}
              <input type="checkbox" data-select-all="ids" data-js-only="" hidden aria-label={t("全选")} />
              <span className="sr-only">{t("选择")}</span>
            </th>
            <th className="p-2">ID</th>
            <th className="p-2">{t("名称")}</th>
            <th className="p-2">{t("状态")}</th>
            <th className="p-2">{t("额度")}</th>
            <th className="p-2">{t("创建时间")}</th>
            <th className="p-2">{t("兑换人ID")}</th>
            <th className="actions-col p-2">{t("操作")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const status = redemptionStatusLabel(row.status);
            const used = row.status === REDEMPTION_STATUS.used;
            return (
              <tr
                key={row.id}
                className={`border-b border-gray-100 align-top dark:border-gray-800 ${row.status !== REDEMPTION_STATUS.unused ? "opacity-70" : ""}`}
                data-testid={`redemption-row-${row.id}`}
              >
                <td className="p-2">
                  <input
                    type="checkbox"
                    name="ids"
                    value={row.id}
                    form={selectionForm}
                    aria-label={t("选择 {{name}} #{{id}}", { name: row.name, id: row.id })}
                  />
                </td>
                <td data-label="ID" className="p-2">
                  {row.id}
                </td>
                <td data-label={t("名称")} className="p-2">
                  <div className="font-medium">{row.name}</div>
                  <code className="text-xs text-gray-500" data-testid="redemption-key-hint">
                    {row.key}
                  </code>
                </td>
                <td data-label={t("状态")} className="p-2">
                  <StatusTag tone={status.tone}>{t(status.label)}</StatusTag>
                </td>
                <td data-label={t("额度")} className="p-2">
                  {renderQuota(row.quota, displayInCurrency, quotaPerUnit)}
                </td>
                <td data-label={t("创建时间")} className="p-2 whitespace-nowrap">
                  {formatTimestamp(row.created_time, timeZone)}
                </td>
                <td data-label={t("兑换人ID")} className="p-2" data-testid="redeemer">
                  {redeemerLabel(row, redeemers, t)}
                </td>
                <td className="actions-col p-2">
                  <div className="flex max-w-[9rem] flex-wrap items-center gap-x-2 gap-y-1 sm:max-w-none">
                    <RowActionForm id={row.id} intent="view" label={t("查看")} />
                    <CopyLinesButton id={row.id} intent="copy" label={t("复制")} />
                    <ConfirmButton
                      label={t("删除")}
                      question={t("确定是否要删除此兑换码？此修改将不可逆")}
                      intent="delete"
                      fields={{ id: row.id }}
                      testId={`delete-${row.id}`}
                    />
                    {/* docs/product.md, Redemption codes: a used code cannot be enabled again; disable is offered while unused.
                        Keyed by status: with JS the page re-renders in place, and a reused <details> would stay open. */}
                    {used ? null : row.status === REDEMPTION_STATUS.unused ? (
                      <ConfirmButton
                        key="disable"
                        label={t("禁用")}
                        question={t("确定要禁用此兑换码吗？禁用后无法兑换")}
                        intent="disable"
                        fields={{ id: row.id }}
                        testId={`disable-${row.id}`}
                      />
                    ) : (
                      <ConfirmButton
                        key="enable"
                        label={t("启用")}
                        question={t("确定要启用此兑换码吗？")}
                        intent="enable"
                        fields={{ id: row.id }}
                        testId={`enable-${row.id}`}
                      />
                    )}
                    {row.status === REDEMPTION_STATUS.unused ? (
                      <Link
                        to={`/redemption/edit/${row.id}`}
                        className="text-sm text-blue-600 hover:underline dark:text-blue-400"
                      >
                        {t("编辑")}
                      </Link>
                    ) : (
                      <span className="text-sm text-gray-400" title={t("只有未使用的兑换码可以编辑")}>
                        {t("编辑")}
                      </span>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
