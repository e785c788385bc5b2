import type { Channel } from "../../../db/schema";
import { decryptSecret } from "~/utils/secrets.server";
import { keyRows, type KeyRow } from "./channel-key-hints";
import { ALL_KEYS_OFF, setChannelKeyStatus } from "./channel-key-status.server";
import { getChannel } from "./channel-queries.server";
import { setChannelStatus } from "./channels.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { enabledKeyCount, KEY_STATUS, parseChannelInfo } from "./multi-key";
import type { Result } from "~/utils/result";

export const KEY_ACTIONS = ["enable_key", "disable_key", "enable_all_keys"] as const;
export type KeyAction = (typeof KEY_ACTIONS)[number];

function statusReasonOf(channel: Channel): string {
  try {
    const info = JSON.parse(channel.other_info || "{}") as { status_reason?: unknown };
    return typeof info.status_reason === "string" ? info.status_reason : "";
  } catch {
    return "";
  }
}

/**
 * An admin enables or disables one key of a multi-key channel (or enables every key). With no
 * key left enabled the channel is disabled automatically, as when the relay disables the last
 * one; once a key is back, a channel disabled for exactly that reason is enabled again. A
 * channel disabled for any other reason (by hand, by a failed test) stays as it is.
 */
export async function manageChannelKey(channelId: number, action: KeyAction, index: number): Promise<Result<string>> {
  const channel = await getChannel(channelId);
  if (!channel) return { ok: false, message: "渠道未找到，请刷新页面后重试。" };
  const info = parseChannelInfo(channel.channel_info);
  if (!info.is_multi_key) return { ok: false, message: "该渠道不是多密钥渠道" };
  let message: string;
  if (action === "enable_all_keys") {
    const off = Object.keys(info.multi_key_status_list)
      .map(Number)
      .filter((i) => i < info.multi_key_size);
    for (const i of off) {
      const changed = await setChannelKeyStatus(channelId, i, KEY_STATUS.enabled, "");
      if (!changed.ok) return changed;
    }
    message = `已启用 ${off.length} 个密钥`;
  } else {
    const enable = action === "enable_key";
    const changed = await setChannelKeyStatus(
      channelId,
      index,
      enable ? KEY_STATUS.enabled : KEY_STATUS.manuallyDisabled,
      enable ? "" : "手动禁用",
    );
    if (!changed.ok) return changed;
    message = enable ? `密钥 #${index} 已启用` : `密钥 #${index} 已禁用`;
  }
  const after = await getChannel(channelId);
  if (!after) return { ok: false, message: "渠道未找到，请刷新页面后重试。" };
  const enabledKeys = enabledKeyCount(parseChannelInfo(after.channel_info));
  if (enabledKeys === 0 && after.status === CHANNEL_STATUS.enabled) {
    await setChannelStatus(channelId, CHANNEL_STATUS.autoDisabled, `${ALL_KEYS_OFF}：手动禁用`);
    return { ok: true, value: `${message}；所有密钥均已禁用，渠道已自动禁用` };
  }
  if (
    enabledKeys > 0 &&
    after.status === CHANNEL_STATUS.autoDisabled &&
    statusReasonOf(after).startsWith(ALL_KEYS_OFF)
  ) {
    await setChannelStatus(channelId, CHANNEL_STATUS.enabled);
    return { ok: true, value: `${message}；渠道已重新启用` };
  }
  return { ok: true, value: message };
}

/** The console's key table of a channel (empty for a one-key channel); hints only. */
export function channelKeyTable(channel: Channel): KeyRow[] {
  const info = parseChannelInfo(channel.channel_info);
  if (!info.is_multi_key) return [];
  let keyText: string | null = null;
  try {
    keyText = decryptSecret(channel.key_encrypted);
  } catch {
    // Sealed with another CRYPTO_SECRET: no hints, but the keys can still be managed by index.
  }
  return keyRows(keyText, info);
}

/** A multi-key channel's enabled and total keys (the list's 多密钥 2/3); null for one key. */
export function keyCounts(channelInfo: string): { enabled: number; total: number } | null {
  const info = parseChannelInfo(channelInfo);
  return info.is_multi_key ? { enabled: enabledKeyCount(info), total: info.multi_key_size } : null;
}
