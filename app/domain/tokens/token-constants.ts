/** Token constants without any schema library, so list pages do not ship zod to the browser. */
import { parseWallClock } from "~/utils/time-zone";

export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export const DEFAULT_TOKEN_QUOTA = 500000;
export const MAX_BATCH_TOKENS = 100;
export const QUOTA_PRESET_DOLLARS = [1, 10, 50, 100, 500, 1000];
export const COUNT_PRESETS = [10, 20, 30, 100];

/**
 * A token's requests and tokens per minute; 0 is no limit. The cap keeps a typo (an extra few
 * zeros) from being stored as if it meant something, and stays inside a PostgreSQL `integer`.
 */
export const MAX_RATE_LIMIT = 1_000_000_000;
export const RATE_LIMIT_LABELS = {
  rpm_limit: "每分钟请求数限制（RPM）",
  tpm_limit: "每分钟 Token 数限制（TPM）",
} as const;

/** The token list's short note of a token's limits ("RPM 5 · TPM 1000"); none when both are off. */
export function rateLimitNote(rpm: number, tpm: number): string | undefined {
  const parts = [rpm > 0 ? `RPM ${rpm}` : "", tpm > 0 ? `TPM ${tpm}` : ""].filter(Boolean);
  return parts.length ? parts.join(" · ") : undefined;
}

/**
 * The reference refuses a token name when Go's `len(token.Name) > 30`, and Go's len() of a
 * string counts UTF-8 bytes, not characters: 30 ASCII letters, 10 Chinese characters, 7 emoji.
 * Counted the same way here, so a name one accepts the other accepts too.
 */
export const MAX_TOKEN_NAME_BYTES = 30;
export const TOKEN_NAME_TOO_LONG = "令牌名称过长";
export function tokenNameFits(name: string): boolean {
  return new TextEncoder().encode(name).length <= MAX_TOKEN_NAME_BYTES;
}

/** Unix seconds of 9999-12-31 23:59:59 UTC: the last expiry a console can show and a Date can hold. */
export const MAX_EXPIRY_SECONDS = 253_402_300_799;
export const EXPIRY_INVALID = "过期时间格式错误！";
/** -1 (never) or a Unix time up to year 9999; "in the past" is the domain's separate refusal. */
export function isExpiryInRange(seconds: number): boolean {
  return seconds === -1 || (Number.isSafeInteger(seconds) && seconds > 0 && seconds <= MAX_EXPIRY_SECONDS);
}

/** The console's expiry field: empty = never (-1), else a date-time in `timeZone` as unix seconds. */
export function parseExpiryInput(value: string, timeZone: string): number | "invalid" {
  if (!value.trim()) return -1;
  const seconds = parseWallClock(value, timeZone);
  return Number.isNaN(seconds) ? "invalid" : seconds;
}
