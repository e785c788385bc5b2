import { z } from "zod";
import {
  DEFAULT_TOKEN_QUOTA,
  EXPIRY_INVALID,
  MAX_RATE_LIMIT,
  MAX_TOKEN_NAME_BYTES,
  RATE_LIMIT_LABELS,
  TOKEN_NAME_TOO_LONG,
  tokenNameFits,
} from "./token-constants";

/**
 * The token fields of /api (and, mapped, of the console form). Quota arrives as an integer;
 * expiry is unix seconds or -1 for never.
 */

export { TOKEN_STATUS, DEFAULT_TOKEN_QUOTA, MAX_BATCH_TOKENS } from "./token-constants";

const int = (message: string) => z.coerce.number({ error: message }).int(message);
// JSON booleans only: coercing made the string "false" truthy, i.e. an unlimited token.
const bool = (field: string) => z.boolean({ error: `${field} 必须是布尔值 true 或 false` });

/**
 * The console form's name rule: required, at most the reference's 30 UTF-8 bytes. Thirty bytes
 * are never more than thirty characters, so the `.max` refuses nothing the byte rule accepts; it
 * is the part of the rule a browser can check (maxlength) before the form is posted.
 */
/**
 * A per-minute limit (rpm_limit, tpm_limit): a whole number from 0 (no limit) to MAX_RATE_LIMIT.
 * Shared by /api and the console form so both refuse the same values with the same words.
 */
export function rateLimitSchema(field: keyof typeof RATE_LIMIT_LABELS) {
  const label = RATE_LIMIT_LABELS[field];
  const message = `${label}必须是 0 到 ${MAX_RATE_LIMIT} 之间的整数（0 表示不限制）`;
  return z.coerce.number({ error: message }).int(message).min(0, message).max(MAX_RATE_LIMIT, message);
}

export const tokenNameSchema = z
  .string({ error: "请输入名称" })
  .trim()
  .min(1, "请输入名称")
  .max(MAX_TOKEN_NAME_BYTES, TOKEN_NAME_TOO_LONG)
  .refine(tokenNameFits, TOKEN_NAME_TOO_LONG);

export const tokenFieldsSchema = z.object({
  // Length and expiry range are the domain's checks (tokens.server.ts), so /api answers with the
  // reference's bare messages ("令牌名称过长", "过期时间格式错误！") rather than a schema path.
  name: z.string({ error: "请输入名称" }).trim().min(1, "请输入名称").max(10_000),
  expired_time: int(EXPIRY_INVALID).default(-1),
  remain_quota: int("额度必须是整数")
    .min(0, "额度不能为负数")
    .max(Number.MAX_SAFE_INTEGER)
    .default(DEFAULT_TOKEN_QUOTA),
  unlimited_quota: bool("unlimited_quota").default(false),
  model_limits_enabled: bool("model_limits_enabled").default(false),
  model_limits: z.string().max(10_000).default(""),
  allow_ips: z.string().max(10_000).default(""),
  group: z.string().trim().max(64).default(""),
  rpm_limit: rateLimitSchema("rpm_limit").default(0),
  tpm_limit: rateLimitSchema("tpm_limit").default(0),
});

export type TokenFields = z.infer<typeof tokenFieldsSchema>;

/**
 * An edit's fields. A limit left out is kept as stored: a client written before the limits
 * existed (the reference's console among them) must not lift them by saving a token.
 */
export type TokenUpdateFields = Omit<TokenFields, "rpm_limit" | "tpm_limit"> &
  Partial<Pick<TokenFields, "rpm_limit" | "tpm_limit">>;

export const tokenUpdateFieldsSchema = tokenFieldsSchema.extend({
  rpm_limit: rateLimitSchema("rpm_limit").optional(),
  tpm_limit: rateLimitSchema("tpm_limit").optional(),
});

export { parseExpiryInput } from "./token-constants";
