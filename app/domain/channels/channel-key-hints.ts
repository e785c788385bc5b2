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

/** The rows of a multi-key channel's key table, from its opened key text. */
export function keyRows(keyText: string, info: ChannelInfo): KeyRow[] {
  if (!info.is_multi_key) return [];
  return splitKeys(keyText, info)
    .slice(0, info.multi_key_size)
    .map((key, index) => ({
      index,
      hint: maskKey(key),
      status: keyStatus(info, index),
      reason: info.multi_key_disabled_reason[String(index)] ?? "",
      time: info.multi_key_disabled_time[String(index)] ?? 0,
    }));
}
