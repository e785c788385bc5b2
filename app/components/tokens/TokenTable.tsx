import { Link } from "@remix-run/react";
import { ConfirmButton } from "~/components/ConfirmButton";
import { RowPopover } from "~/components/RowPopover";
import { RowActionForm, StatusToggle } from "~/components/RowActionForm";
import { StatusTag } from "~/components/StatusTag";
import { useT } from "~/components/i18n/locale-context";
import { rateLimitNote, TOKEN_STATUS } from "~/domain/tokens/token-constants";
import { tokenStatusLabel } from "~/domain/tokens/token-status";
import { renderQuota } from "~/utils/format";
import { formatTimestamp } from "~/utils/time-zone";
import { useTimeZone } from "~/components/useTimeZone";
import { CopyKeyButton, tokenKeyId } from "./CopyKeyButton";

export type TokenRow = {
  id: number;
  name: string;
  key: string;
  status: number;
  used_quota: number;
  remain_quota: number;
  unlimited_quota: boolean;
  created_time: number;
  expired_time: number;
  model_limits_enabled: boolean;
  rpm_limit: number;
  tpm_limit: number;
};

type Props = {
  tokens: TokenRow[];
  revealed?: { id: number; key: string };
  chats: string[];
  displayInCurrency: boolean;
  quotaPerUnit: number;
};

export function TokenTable({ tokens, revealed, chats, displayInCurrency, quotaPerUnit }: Props) {
  const timeZone = useTimeZone();
  const t = useT();
  if (tokens.length === 0) return <p className="card text-sm text-gray-500">{t("暂无令牌")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="card-rows w-full sm:min-w-[720px] border-collapse text-sm" data-testid="token-table">
        <thead>
          <tr className="border-b border-gray-200 text-left dark:border-gray-700">
            <th className="p-2">
              {/* Select all: needs the enhancement script, so hidden without it. */}
              <input type="checkbox" data-select-all="ids" data-js-only="" hidden aria-label={t("全选")} />
              <span className="sr-only">{t("选择")}</span>
            </th>
            <th className="p-2">{t("名称")}</th>
            <th className="p-2">{t("状态")}</th>
            <th className="p-2">{t("已用额度")}</th>
            <th className="p-2">{t("剩余额度")}</th>
            <th className="p-2">{t("创建时间")}</th>
            <th className="p-2">{t("过期时间")}</th>
            <th className="actions-col p-2">{t("操作")}</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const status = tokenStatusLabel(token.status, token.model_limits_enabled);
            const shownKey = revealed?.id === token.id ? revealed.key : `sk-${token.key}`;
            const limits = rateLimitNote(token.rpm_limit, token.tpm_limit);
            return (
              <tr
                key={token.id}
                className={`border-b border-gray-100 align-top dark:border-gray-800 ${token.status !== TOKEN_STATUS.enabled ? "opacity-60" : ""}`}
                data-testid={`token-row-${token.name}`}
              >
                <td className="p-2">
                  <input
                    type="checkbox"
                    name="ids"
                    value={token.id}
                    form="token-selection"
                    aria-label={t("选择 {{name}}", { name: token.name })}
                  />
                </td>
                <td data-label={t("名称")} className="p-2">
                  <div className="font-medium">{token.name}</div>
                  <code
                    id={tokenKeyId(token.id)}
                    className="whitespace-nowrap text-xs text-gray-500"
                    data-testid="token-key"
                  >
                    {shownKey}
                  </code>
                </td>
                <td data-label={t("状态")} className="p-2">
                  <StatusTag tone={status.tone}>{t(status.label)}</StatusTag>
                </td>
                <td data-label={t("已用额度")} className="p-2">
                  {renderQuota(token.used_quota, displayInCurrency, quotaPerUnit)}
                </td>
                <td data-label={t("剩余额度")} className="p-2">
                  {token.unlimited_quota
                    ? t("无限制")
                    : renderQuota(token.remain_quota, displayInCurrency, quotaPerUnit)}
                  {limits ? (
                    <div className="whitespace-nowrap text-xs text-gray-500" data-testid="token-limits">
                      {limits}
                    </div>
                  ) : null}
                </td>
                <td data-label={t("创建时间")} className="p-2 whitespace-nowrap">
                  {formatTimestamp(token.created_time, timeZone)}
                </td>
                <td data-label={t("过期时间")} className="p-2 whitespace-nowrap">
                  {token.expired_time === -1 ? t("永不过期") : formatTimestamp(token.expired_time, timeZone)}
                </td>
                <td className="actions-col p-2">
                  <div className="flex max-w-[9rem] flex-wrap items-center gap-x-2 gap-y-1 sm:max-w-none">
                    <RowActionForm id={token.id} intent="reveal" label={t("查看")} />
                    <CopyKeyButton id={token.id} />
                    {chats.length ? (
                      <RowPopover summary={t("聊天")} summaryClassName="text-blue-600 dark:text-blue-400">
                        <ul>
                          {/* The default presets' names are the product's words; names an operator gave pass as they are. */}
                          {chats.map((name, index) => (
                            <li key={name}>
                              <a
                                href={`/token/chat?id=${token.id}&chat=${index}`}
                                target="_blank"
                                rel="noreferrer"
                                className="block rounded px-2 py-1 hover:bg-gray-100 dark:hover:bg-gray-700"
                              >
                                {t(name)}
                              </a>
                            </li>
                          ))}
                        </ul>
                      </RowPopover>
                    ) : null}
                    <ConfirmButton
                      label={t("删除")}
                      question={t("确定是否要删除此令牌？此修改将不可逆")}
                      intent="delete"
                      fields={{ id: token.id }}
                      testId={`delete-${token.name}`}
                    />
                    <StatusToggle id={token.id} enabled={token.status === TOKEN_STATUS.enabled} />
                    <Link
                      to={`/token/edit/${token.id}`}
                      className="text-sm text-blue-600 hover:underline dark:text-blue-400"
                    >
                      {t("编辑")}
                    </Link>
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
