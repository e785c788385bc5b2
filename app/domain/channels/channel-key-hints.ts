import { keyStatus, splitKeys, type ChannelInfo } from "./multi-key";

/** One key of a multi-key channel as the console may show it: a hint, never the key. */
export type KeyRow = { index: number; hint: string; status: number; reason: string; time: number };

/**
 * Enough of a key to tell it from its neighbours: the first 3 and last 4 characters of a long
 * key; a short key shows at most a quarter of itself (its tail), so a hint never gives most of
 * a key away.
 */
export function maskKey(key: string): string {
  const chars = [...key];
  if (chars.length >= 16) return `${chars.slice(0, 3).join("")}…${chars.slice(-4).join("")}`;
  const tail = Math.min(4, Math.floor(chars.length / 4));
  return tail ? `…${chars.slice(-tail).join("")}` : "…";
}

/** The rows of a multi-key channel's key table, from its opened key text (null: it could not be opened). */
export function keyRows(keyText: string | null, info: ChannelInfo): KeyRow[] {
  if (!info.is_multi_key) return [];
  const keys = keyText === null ? Array.from({ length: info.multi_key_size }, () => null) : splitKeys(keyText, info);
  return keys.slice(0, info.multi_key_size).map((key, index) => ({
    index,
    hint: key === null ? "（无法解密）" : maskKey(key),
    status: keyStatus(info, index),
    reason: info.multi_key_disabled_reason[String(index)] ?? "",
    time: info.multi_key_disabled_time[String(index)] ?? 0,
  }));
}
