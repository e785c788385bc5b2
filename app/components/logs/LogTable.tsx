import { useMessage, useT } from "~/components/i18n/locale-context";
import { StatusTag, type Tone } from "~/components/StatusTag";
import { renderQuota } from "~/utils/format";
import { formatTimestamp } from "~/utils/time-zone";
import { useTimeZone } from "~/components/useTimeZone";
import { LOG_TYPE } from "~/domain/logs/log-types";

export type LogRowView = {
  id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  channel: number;
  channel_name?: string;
  user_id: number;
  other: string;
};

export type UserCard = { username: string; quota: number; used_quota: number; request_count: number };

const TYPES: Record<number, { label: string; tone: Tone }> = {
  [LOG_TYPE.topup]: { label: "充值", tone: "green" },
  [LOG_TYPE.consume]: { label: "消费", tone: "blue" },
  [LOG_TYPE.manage]: { label: "管理", tone: "yellow" },
  [LOG_TYPE.system]: { label: "系统", tone: "gray" },
};

type LogOther = {
  frt?: number;
  use_channel?: string[];
  cache_tokens?: number;
  cache_creation_tokens?: number;
  reasoning_tokens?: number;
};

/** A count from the row's `other` JSON, shown only when it is a positive number. */
const positive = (value: unknown): number | undefined => (typeof value === "number" && value > 0 ? value : undefined);

function parseOther(other: string): LogOther {
  try {
    const parsed = JSON.parse(other) as {
      frt?: number;
      admin_info?: { use_channel?: string[] };
      cache_tokens?: unknown;
      cache_creation_tokens?: unknown;
      reasoning_tokens?: unknown;
    };
    return {
      frt: parsed.frt,
      use_channel: parsed.admin_info?.use_channel,
      cache_tokens: positive(parsed.cache_tokens),
      cache_creation_tokens: positive(parsed.cache_creation_tokens),
      reasoning_tokens: positive(parsed.reasoning_tokens),
    };
  } catch {
    return {};
  }
}

/** The prompt cell: the count, then how much of it was read from or written to the cache. */
function PromptTokens({ tokens, other }: { tokens: number; other: LogOther }) {
  const t = useT();
  return (
    <>
      {tokens}
      {other.cache_tokens ? (
        <div className="text-xs text-gray-500 dark:text-gray-400" data-testid="log-cache-tokens">
          {t("缓存 {{tokens}}", { tokens: other.cache_tokens })}
        </div>
      ) : null}
      {other.cache_creation_tokens ? (
        <div className="text-xs text-gray-500 dark:text-gray-400" data-testid="log-cache-write-tokens">
          {t("缓存写入 {{tokens}}", { tokens: other.cache_creation_tokens })}
        </div>
      ) : null}
    </>
  );
}

type Props = {
  logs: LogRowView[];
  isAdmin: boolean;
  users: Record<number, UserCard>;
  displayInCurrency: boolean;
  quotaPerUnit: number;
};

/**
 * The usage log table. An admin sees channel and user columns, the retry chain and, on a user
 * name, that user's balance card (a <details>, so it opens without JavaScript).
 */
export function LogTable({ logs, isAdmin, users, displayInCurrency, quotaPerUnit }: Props) {
  const timeZone = useTimeZone();
  const t = useT();
  // A row's content is the stored Chinese log line, read back in the reader's language.
  const message = useMessage();
  if (logs.length === 0) return <p className="card text-sm text-gray-500">{t("暂无日志")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="card-rows w-full sm:min-w-[860px] border-collapse text-sm" data-testid="log-table">
        <thead>
          <tr className="border-b border-gray-200 text-left dark:border-gray-700">
            <th className="p-2">{t("时间")}</th>
            {isAdmin ? <th className="p-2">{t("渠道", { context: "single" })}</th> : null}
            {isAdmin ? <th className="p-2">{t("用户")}</th> : null}
            <th className="p-2">{t("令牌", { context: "single" })}</th>
            <th className="p-2">{t("类型")}</th>
            <th className="p-2">{t("模型", { context: "single" })}</th>
            <th className="p-2">{t("用时/首字")}</th>
            <th className="p-2">{t("提示")}</th>
            <th className="p-2">{t("补全")}</th>
            <th className="p-2">{t("花费")}</th>
            {isAdmin ? <th className="p-2">{t("重试")}</th> : null}
            <th className="p-2">{t("详情")}</th>
          </tr>
        </thead>
        <tbody>
          {logs.map((log) => {
            const type = TYPES[log.type] ?? { label: "未知", tone: "gray" as Tone };
            const other = parseOther(log.other);
            const consume = log.type === LOG_TYPE.consume;
            const card = users[log.user_id];
            return (
              <tr
                key={log.id}
                className="border-b border-gray-100 align-top dark:border-gray-800"
                data-testid="log-row"
              >
                <td data-label={t("时间")} className="whitespace-nowrap p-2">
                  {formatTimestamp(log.created_at, timeZone)}
                </td>
                {isAdmin ? (
                  <td data-label={t("渠道", { context: "single" })} className="p-2" title={log.channel_name}>
                    {log.channel ? <StatusTag tone="gray">{log.channel}</StatusTag> : null}
                  </td>
                ) : null}
                {isAdmin ? (
                  <td data-label={t("用户")} className="p-2">
                    {card ? (
                      <details>
                        <summary className="cursor-pointer whitespace-nowrap text-blue-700 dark:text-blue-300">
                          {log.username}
                        </summary>
                        <dl
                          className="mt-1 grid w-max grid-cols-[auto_auto] gap-x-3 whitespace-nowrap text-xs"
                          data-testid="user-card"
                        >
                          <dt>{t("用户名")}</dt>
                          <dd>{card.username}</dd>
                          <dt>{t("剩余额度")}</dt>
                          <dd>{renderQuota(card.quota, displayInCurrency, quotaPerUnit)}</dd>
                          <dt>{t("已用额度")}</dt>
                          <dd>{renderQuota(card.used_quota, displayInCurrency, quotaPerUnit)}</dd>
                          <dt>{t("请求次数")}</dt>
                          <dd>{card.request_count}</dd>
                        </dl>
                      </details>
                    ) : (
                      log.username
                    )}
                  </td>
                ) : null}
                {/* A channel test's row carries the system's own name for it (模型测试): read in the reader's language. */}
                <td data-label={t("令牌", { context: "single" })} className="p-2">
                  {log.token_name ? <StatusTag tone="gray">{message(log.token_name)}</StatusTag> : null}
                </td>
                <td data-label={t("类型")} className="p-2">
                  <StatusTag tone={type.tone}>{t(type.label)}</StatusTag>
                </td>
                <td data-label={t("模型", { context: "single" })} className="p-2">
                  {log.model_name}
                </td>
                <td data-label={t("用时/首字")} className="whitespace-nowrap p-2">
                  {consume ? (
                    <>
                      <StatusTag tone={log.use_time <= 5 ? "green" : log.use_time <= 10 ? "yellow" : "red"}>
                        {log.use_time} s
                      </StatusTag>{" "}
                      {log.is_stream && other.frt !== undefined && other.frt >= 0 ? (
                        <StatusTag tone="gray">{(other.frt / 1000).toFixed(1)} s</StatusTag>
                      ) : null}{" "}
                      <StatusTag tone={log.is_stream ? "lime" : "blue"}>{t(log.is_stream ? "流" : "非流")}</StatusTag>
                    </>
                  ) : null}
                </td>
                <td data-label={t("提示")} className="p-2">
                  {consume ? <PromptTokens tokens={log.prompt_tokens} other={other} /> : ""}
                </td>
                <td data-label={t("补全")} className="p-2">
                  {consume ? log.completion_tokens : ""}
                  {consume && other.reasoning_tokens ? (
                    <div className="text-xs text-gray-500 dark:text-gray-400" data-testid="log-reasoning-tokens">
                      {t("推理 {{tokens}}", { tokens: other.reasoning_tokens })}
                    </div>
                  ) : null}
                </td>
                <td data-label={t("花费")} className="p-2" data-testid="log-cost">
                  {/* A call often costs fractions of a cent: six places, as the reference shows them. */}
                  {consume ? renderQuota(log.quota, displayInCurrency, quotaPerUnit, 6) : ""}
                </td>
                {isAdmin ? (
                  <td data-label={t("重试")} className="p-2 text-xs">
                    {other.use_channel && other.use_channel.length > 1
                      ? t("渠道：{{chain}}", { chain: other.use_channel.join(" → ") })
                      : ""}
                  </td>
                ) : null}
                <td data-label={t("详情")} className="max-w-xs p-2 text-xs text-gray-600 dark:text-gray-300">
                  {message(log.content)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
