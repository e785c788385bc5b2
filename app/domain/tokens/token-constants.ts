/** Token constants without any schema library, so list pages do not ship zod to the browser. */
import { parseWallClock } from "~/utils/time-zone";

export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export const DEFAULT_TOKEN_QUOTA = 500000;
export const MAX_BATCH_TOKENS = 100;
export const QUOTA_PRESET_DOLLARS = [1, 10, 50, 100, 500, 1000];
export const COUNT_PRESETS = [10, 20, 30, 100];

/** The console's expiry field: empty = never (-1), else a date-time in `timeZone` as unix seconds. */
export function parseExpiryInput(value: string, timeZone: string): number | "invalid" {
  if (!value.trim()) return -1;
  const seconds = parseWallClock(value, timeZone);
  return Number.isNaN(seconds) ? "invalid" : seconds;
}
