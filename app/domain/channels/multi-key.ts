import { z } from "zod";

/**
 * A channel that holds several upstream keys, one per line of its key, the way the reference's
 * multi-key channels do: `channel_info` is its JSON (the reference's field names), read here at
 * the edge with one schema. Keys are numbered from 0 in the order of their lines; a key's status
 * is kept only while it is not enabled.
 */
export const KEY_STATUS = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;
export type KeyMode = "random" | "polling";

const indexMap = <T extends z.ZodTypeAny>(value: T) => z.record(z.string().regex(/^\d{1,4}$/), value).catch({});

const channelInfoSchema = z.object({
  is_multi_key: z.boolean().catch(false),
  multi_key_size: z.number().int().min(0).max(10_000).catch(0),
  multi_key_mode: z.enum(["random", "polling"]).catch("random"),
  multi_key_status_list: indexMap(z.number().int().min(1).max(3)),
  multi_key_disabled_reason: indexMap(z.string().max(500)),
  multi_key_disabled_time: indexMap(z.number().int().min(0)),
  multi_key_polling_index: z.number().int().min(0).catch(0),
});

export type ChannelInfo = z.infer<typeof channelInfoSchema>;

export const ONE_KEY_INFO: ChannelInfo = {
  is_multi_key: false,
  multi_key_size: 0,
  multi_key_mode: "random",
  multi_key_status_list: {},
  multi_key_disabled_reason: {},
  multi_key_disabled_time: {},
  multi_key_polling_index: 0,
};

/** The stored text as the schema's value: '' or anything unreadable is a one-key channel. */
export function parseChannelInfo(text: string | null | undefined): ChannelInfo {
  if (!text) return ONE_KEY_INFO;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return ONE_KEY_INFO;
  }
  const parsed = channelInfoSchema.safeParse(raw);
  return parsed.success ? parsed.data : ONE_KEY_INFO;
}

/** A new multi-key channel's info for `size` keys, all enabled. */
export function multiKeyInfo(size: number, mode: KeyMode): ChannelInfo {
  return { ...ONE_KEY_INFO, is_multi_key: true, multi_key_size: size, multi_key_mode: mode };
}

/** A multi-key channel's keys, in line order (the opened key text); a one-key channel's one key. */
export function splitKeys(keyText: string, info: ChannelInfo): string[] {
  if (!info.is_multi_key) return [keyText];
  return keyText
    .split(/\r?\n/)
    .map((k) => k.trim())
    .filter(Boolean);
}

export function keyStatus(info: ChannelInfo, index: number): number {
  return info.multi_key_status_list[String(index)] ?? KEY_STATUS.enabled;
}

/** The info with one key's status changed (its reason and time recorded while it is off). */
export function withKeyStatus(
  info: ChannelInfo,
  index: number,
  status: number,
  reason: string,
  now: number,
): ChannelInfo {
  const at = String(index);
  const statuses = { ...info.multi_key_status_list };
  const reasons = { ...info.multi_key_disabled_reason };
  const times = { ...info.multi_key_disabled_time };
  if (status === KEY_STATUS.enabled) {
    delete statuses[at];
    delete reasons[at];
    delete times[at];
  } else {
    statuses[at] = status;
    reasons[at] = reason.slice(0, 500);
    times[at] = now;
  }
  return {
    ...info,
    multi_key_status_list: statuses,
    multi_key_disabled_reason: reasons,
    multi_key_disabled_time: times,
  };
}

/** How many of the channel's keys are enabled. */
export function enabledKeyCount(info: ChannelInfo): number {
  if (!info.is_multi_key) return 1;
  let off = 0;
  for (const [index, status] of Object.entries(info.multi_key_status_list))
    if (Number(index) < info.multi_key_size && status !== KEY_STATUS.enabled) off += 1;
  return info.multi_key_size - off;
}

/**
 * The one key a call outside the relay uses (a channel test, the model list, the balance, a
 * task's polling): the first enabled key of a multi-key channel (the first line when all are
 * off), the key itself otherwise. Never the whole multi-line text, which no upstream accepts.
 */
export function firstUsableKey(openedKey: string, info: ChannelInfo): string {
  if (!info.is_multi_key) return openedKey;
  const keys = splitKeys(openedKey, info);
  return keys.find((_, index) => keyStatus(info, index) === KEY_STATUS.enabled) ?? keys[0] ?? "";
}
