import { Form, Link } from "@remix-run/react";
import { ConfirmButton } from "~/components/ConfirmButton";
import { RowActionForm, StatusToggle } from "~/components/RowActionForm";
import { StatusTag } from "~/components/StatusTag";
import {
  channelStatusTag,
  lastTestFailure,
  renderBalance,
  responseTimeTone,
  statusReason,
} from "~/domain/channels/channel-display";
import { renderQuota } from "~/utils/format";
import { formatTimestamp } from "~/utils/time-zone";
import { useTimeZone } from "~/components/useTimeZone";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { useMessage, useT } from "~/components/i18n/locale-context";

export type ChannelRowData = {
  id: number;
  name: string;
  type: number;
  typeName: string;
  group: string;
  status: number;
  response_time: number;
  used_quota: number;
  /** Quota delivered calls cost beyond what their payers had left (decision 009). */
  shortfall_quota: number;
  balance: number;
  priority: number;
  weight: number;
  other_info: string;
  /** Enabled and total keys of a multi-key channel; null for a one-key channel. */
  keys: { enabled: number; total: number } | null;
};

export function ChannelRow({ channel, displayInCurrency }: { channel: ChannelRowData; displayInCurrency: boolean }) {
  const t = useT();
  const message = useMessage();
  const status = channelStatusTag(channel.status);
  const timeZone = useTimeZone();
  // The stored reason is a finished Chinese message (or an upstream's words): read back, then dated.
  const stored = statusReason(channel.other_info);
  const reasonText = message(stored.reason);
  const reason =
    stored.reason && stored.time
      ? t("{{label}}（{{detail}}）", { label: reasonText, detail: formatTimestamp(stored.time, timeZone) })
      : reasonText;
  const time = responseTimeTone(channel.response_time);
  // A failed test's duration is no response time: the cell says the test failed, and why.
  const testFailure = message(lastTestFailure(channel.other_info));
  const routingForm = `routing-${channel.id}`;
  return (
    <tr
      className={`border-b border-gray-100 align-top dark:border-gray-800 ${channel.status !== CHANNEL_STATUS.enabled ? "opacity-60" : ""}`}
      data-testid={`channel-row-${channel.name}`}
    >
      <td className="p-2">
        <input
          type="checkbox"
          name="ids"
          value={channel.id}
          form="channel-selection"
          aria-label={t("选择 {{name}}", { name: channel.name })}
        />
      </td>
      <td data-label="ID" className="p-2">
        {channel.id}
      </td>
      <td data-label={t("名称")} className="p-2 font-medium">
        {channel.name}
      </td>
      <td data-label={t("分组")} className="p-2">
        {channel.group.split(",").map((g) => (
          <span key={g} className="mr-1 inline-block rounded bg-gray-100 px-1 text-xs dark:bg-gray-700">
            {g}
          </span>
        ))}
      </td>
      <td data-label={t("类型")} className="p-2">
        {t(channel.typeName)}
        {channel.keys ? (
          <div className="mt-1" data-testid="multi-key">
            <StatusTag
              tone={channel.keys.enabled === channel.keys.total ? "green" : channel.keys.enabled ? "yellow" : "red"}
            >
              {t("多密钥 {{enabled}}/{{total}}", { enabled: channel.keys.enabled, total: channel.keys.total })}
            </StatusTag>
          </div>
        ) : null}
      </td>
      <td data-label={t("状态")} className="p-2">
        <StatusTag tone={status.tone} title={reason || undefined}>
          <CapitalFirst>{t(status.label)}</CapitalFirst>
        </StatusTag>
        {reason ? (
          <div className="mt-1 max-w-[12rem] text-xs text-gray-500" data-testid="status-reason">
            {reason}
          </div>
        ) : null}
      </td>
      <td data-label={t("响应时间")} className="p-2" data-testid="response-time">
        {testFailure ? (
          <>
            <StatusTag tone="red" title={testFailure}>
              {t("测试失败")}
            </StatusTag>
            <div
              className="mt-1 max-w-[14rem] break-words text-xs text-red-600 dark:text-red-400"
              data-testid="test-error"
            >
              {testFailure}
            </div>
          </>
        ) : (
          <StatusTag tone={time.tone}>{message(time.label)}</StatusTag>
        )}
      </td>
      <td data-label={t("已用/剩余")} className="p-2 whitespace-nowrap">
        {renderQuota(channel.used_quota, displayInCurrency)} /{" "}
        <Form method="post" className="inline">
          <input type="hidden" name="id" value={channel.id} />
          <button
            type="submit"
            name="intent"
            value="balance"
            title={t("更新余额")}
            className="text-blue-600 hover:underline dark:text-blue-400"
          >
            {renderBalance(channel.balance)}
          </button>
        </Form>
        {channel.shortfall_quota > 0 ? (
          <div
            className="text-xs text-red-600 dark:text-red-400"
            title={t("调用费用超出用户剩余额度、未能扣除的部分")}
            data-testid="channel-shortfall"
          >
            {t("未扣额度 {{quota}}", { quota: renderQuota(channel.shortfall_quota, displayInCurrency) })}
          </div>
        ) : null}
      </td>
      <td data-label={t("优先级")} className="p-2">
        <Form method="post" id={routingForm} className="flex items-center gap-1">
          <input type="hidden" name="intent" value="routing" />
          <input type="hidden" name="id" value={channel.id} />
          <input
            name="priority"
            type="number"
            min={-999}
            defaultValue={channel.priority}
            className="input w-20"
            aria-label={t("{{name}} 优先级", { name: channel.name })}
          />
        </Form>
      </td>
      <td data-label={t("权重")} className="p-2">
        <div className="flex items-center gap-1">
          <input
            name="weight"
            type="number"
            min={0}
            defaultValue={channel.weight}
            form={routingForm}
            className="input w-16"
            aria-label={t("{{name}} 权重", { name: channel.name })}
          />
          <button type="submit" form={routingForm} className="btn-secondary">
            {t("保存")}
          </button>
        </div>
      </td>
      <td className="actions-col p-2">
        <div className="flex max-w-[9rem] flex-wrap items-center gap-x-2 gap-y-1 sm:max-w-none">
          <StatusToggle id={channel.id} enabled={channel.status === CHANNEL_STATUS.enabled} />
          <RowActionForm id={channel.id} intent="test" label={t("测试")} />
          <Link to={`/channel/edit/${channel.id}`} className="text-sm text-blue-600 hover:underline dark:text-blue-400">
            {t("编辑")}
          </Link>
          <RowActionForm id={channel.id} intent="copy" label={t("复制")} />
          <ConfirmButton
            label={t("删除")}
            question={t("确定是否要删除此渠道？此修改将不可逆")}
            intent="delete"
            fields={{ id: channel.id }}
            testId={`delete-${channel.name}`}
          />
        </div>
      </td>
    </tr>
  );
}

/**
 * Status words the catalog gives in lower case (自动禁用 is also said inside sentences): a tag
 * starts with a capital. First-letter styling needs a block, hence inline-block.
 */
export function CapitalFirst({ children }: { children: React.ReactNode }) {
  return <span className="inline-block first-letter:uppercase">{children}</span>;
}
