import { Form } from "@remix-run/react";
import { StatusTag } from "~/components/StatusTag";
import { useTimeZone } from "~/components/useTimeZone";
import type { KeyRow } from "~/domain/channels/channel-key-hints";
import { keyStatusLabel } from "~/domain/channels/channel-display";
import { formatTimestamp } from "~/utils/time-zone";
import { KEY_STATUS } from "~/domain/channels/multi-key";

/** One key's 启用/禁用 as its own small POST form, so it works without JavaScript. */
function KeyButton({ index, enabled }: { index: number; enabled: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="key_index" value={index} />
      <button type="submit" name="intent" value={enabled ? "disable-key" : "enable-key"} className={`text-sm hover:underline ${enabled ? "text-yellow-700 dark:text-yellow-400" : "text-green-700 dark:text-green-400"}`}>
        {enabled ? "禁用" : "启用"}
      </button>
    </Form>
  );
}

/** A multi-key channel's keys by index: a hint of each (never the key), its status and why. */
export function ChannelKeyTable({ keys }: { keys: KeyRow[] }) {
  const timeZone = useTimeZone();
  const enabled = keys.filter((k) => k.status === KEY_STATUS.enabled).length;
  return (
    <section className="card flex max-w-3xl flex-col gap-3" aria-labelledby="channel-keys-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="channel-keys-title" className="text-lg font-bold">密钥列表（已启用 {enabled}/{keys.length}）</h2>
        {enabled < keys.length ? (
          <Form method="post">
            <button type="submit" name="intent" value="enable-all-keys" className="btn-secondary">全部启用</button>
          </Form>
        ) : null}
      </div>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm" data-testid="channel-key-table">
          <thead>
            <tr className="border-b border-gray-200 text-left dark:border-gray-700">
              <th className="p-2">序号</th>
              <th className="p-2">密钥</th>
              <th className="p-2">状态</th>
              <th className="p-2">禁用原因</th>
              <th className="p-2">操作</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.index} className="border-b border-gray-100 dark:border-gray-800" data-testid={`channel-key-${key.index}`}>
                <td className="p-2">{key.index}</td>
                <td className="p-2 font-mono">{key.hint}</td>
                <td className="p-2">
                  <StatusTag tone={key.status === KEY_STATUS.enabled ? "green" : key.status === KEY_STATUS.manuallyDisabled ? "red" : "yellow"}>{keyStatusLabel(key.status)}</StatusTag>
                </td>
                <td className="p-2 text-xs text-gray-500">
                  {key.status !== KEY_STATUS.enabled ? `${key.reason || keyStatusLabel(key.status)}${key.time ? `（${formatTimestamp(key.time, timeZone)}）` : ""}` : ""}
                </td>
                <td className="p-2"><KeyButton index={key.index} enabled={key.status === KEY_STATUS.enabled} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
