import { Form } from "@remix-run/react";
import { StatusTag } from "~/components/StatusTag";
import { useTimeZone } from "~/components/useTimeZone";
import type { KeyRow } from "~/domain/channels/channel-key-hints";
import { keyStatusLabel } from "~/domain/channels/channel-display";
import { formatTimestamp } from "~/utils/time-zone";
import { KEY_STATUS } from "~/domain/channels/multi-key";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { CapitalFirst } from "./ChannelRow";

/** One key's 启用/禁用 as its own small POST form, so it works without JavaScript. */
function KeyButton({ index, enabled }: { index: number; enabled: boolean }) {
  const t = useT();
  return (
    <Form method="post">
      <input type="hidden" name="key_index" value={index} />
      <button
        type="submit"
        name="intent"
        value={enabled ? "disable-key" : "enable-key"}
        className={`text-sm hover:underline ${enabled ? "text-yellow-700 dark:text-yellow-400" : "text-green-700 dark:text-green-400"}`}
      >
        {enabled ? t("禁用") : t("启用")}
      </button>
    </Form>
  );
}

/** A multi-key channel's keys by index: a hint of each (never the key), its status and why. */
export function ChannelKeyTable({ keys }: { keys: KeyRow[] }) {
  const t = useT();
  const message = useMessage();
  const timeZone = useTimeZone();
  // A key's reason is a stored Chinese message (or an upstream's words), read back; then its date.
  const why = (key: KeyRow) => {
    const reason = key.reason ? message(key.reason) : t(keyStatusLabel(key.status));
    return key.time
      ? t("{{label}}（{{detail}}）", { label: reason, detail: formatTimestamp(key.time, timeZone) })
      : reason;
  };
  const enabled = keys.filter((k) => k.status === KEY_STATUS.enabled).length;
  return (
    <section className="card flex max-w-3xl flex-col gap-3" aria-labelledby="channel-keys-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="channel-keys-title" className="text-lg font-bold">
          {t("密钥列表（已启用 {{enabled}}/{{total}}）", { enabled, total: keys.length })}
        </h2>
        {enabled < keys.length ? (
          <Form method="post">
            <button type="submit" name="intent" value="enable-all-keys" className="btn-secondary">
              {t("全部启用")}
            </button>
          </Form>
        ) : null}
      </div>
      {/* Narrower cells on a phone, so a longer language's words leave the actions column on screen. */}
      <div className="overflow-x-auto">
        <table
          className="w-full border-collapse text-sm [&_td]:px-1 [&_th]:px-1 sm:[&_td]:px-2 sm:[&_th]:px-2"
          data-testid="channel-key-table"
        >
          <thead>
            <tr className="border-b border-gray-200 text-left dark:border-gray-700">
              <th className="p-2">{t("序号")}</th>
              <th className="p-2">{t("密钥")}</th>
              <th className="p-2">{t("状态")}</th>
              <th className="p-2">{t("禁用原因")}</th>
              <th className="p-2">{t("操作")}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr
                key={key.index}
                className="border-b border-gray-100 dark:border-gray-800"
                data-testid={`channel-key-${key.index}`}
              >
                <td className="p-2">{key.index}</td>
                <td className="p-2 font-mono">{message(key.hint)}</td>
                <td className="p-2">
                  <StatusTag
                    tone={
                      key.status === KEY_STATUS.enabled
                        ? "green"
                        : key.status === KEY_STATUS.manuallyDisabled
                          ? "red"
                          : "yellow"
                    }
                  >
                    <CapitalFirst>{t(keyStatusLabel(key.status))}</CapitalFirst>
                  </StatusTag>
                </td>
                <td className="p-2 text-xs text-gray-500">{key.status !== KEY_STATUS.enabled ? why(key) : ""}</td>
                <td className="p-2">
                  <KeyButton index={key.index} enabled={key.status === KEY_STATUS.enabled} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
