import { getDb } from "~/utils/db.server";
import type { Result } from "~/utils/result";
import { announce, setChannelStatus } from "./channels.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { enabledKeyCount, KEY_STATUS, parseChannelInfo, withKeyStatus } from "./multi-key";

/** The reason a channel gets when it has no enabled key left; enabling a key again re-enables only a channel disabled for it. */
export const ALL_KEYS_OFF = "所有密钥均已禁用";

/** Whether the change left the channel itself disabled (its last enabled key gone). */
export type KeyStatusChange = Result<boolean>;

/**
 * Sets one key of a multi-key channel aside (or back): a key its upstream refused is disabled
 * alone and the channel keeps serving with the others; when the last enabled key goes, the
 * channel itself is disabled the way a one-key channel would be. The read-modify-write of
 * `channel_info` holds the row lock, so two nodes disabling two keys at once keep both.
 */
export async function setChannelKeyStatus(
  channelId: number,
  index: number,
  status: number,
  reason: string,
): Promise<KeyStatusChange> {
  if (![KEY_STATUS.enabled, KEY_STATUS.manuallyDisabled, KEY_STATUS.autoDisabled].includes(status as 1))
    return { ok: false, message: "无效的密钥状态" };
  const db = await getDb();
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("channels")
      .select(["channel_info", "status"])
      .where("id", "=", channelId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { ok: false as const, message: "渠道未找到，请刷新页面后重试。" };
    const info = parseChannelInfo(row.channel_info);
    if (!info.is_multi_key || index < 0 || index >= info.multi_key_size)
      return { ok: false as const, message: "该渠道没有这个密钥" };
    const next = withKeyStatus(info, index, status, reason, Math.floor(Date.now() / 1000));
    await trx
      .updateTable("channels")
      .set({ channel_info: JSON.stringify(next) })
      .where("id", "=", channelId)
      .execute();
    return {
      ok: true as const,
      noneLeft: enabledKeyCount(next) === 0,
      wasEnabled: row.status === CHANNEL_STATUS.enabled,
    };
  });
  if (!outcome.ok) return outcome;
  if (outcome.noneLeft && outcome.wasEnabled && status === KEY_STATUS.autoDisabled) {
    await setChannelStatus(channelId, CHANNEL_STATUS.autoDisabled, `${ALL_KEYS_OFF}：${reason}`.slice(0, 500));
    return { ok: true, value: true };
  }
  await announce(channelId);
  return { ok: true, value: false };
}
