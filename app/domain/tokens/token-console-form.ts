import { z } from "zod";
import { isTimeZone } from "~/utils/time-zone";
import {
  DEFAULT_TOKEN_QUOTA,
  MAX_BATCH_TOKENS,
  parseExpiryInput,
  rateLimitSchema,
  tokenNameSchema,
  type TokenFields,
} from "./token-form";

/**
 * The console's token form (create and edit share it). Expiry is typed as "YYYY-MM-DD HH:mm:ss"
 * (empty = never) so it works as a plain text field without JavaScript; checkboxes arrive as "on".
 */
export const tokenConsoleSchema = z.object({
  name: tokenNameSchema,
  expired_at: z
    .string()
    .trim()
    .optional()
    // Whether it is a time at all does not depend on the zone it is read in.
    .refine((v) => !v || parseExpiryInput(v, "UTC") !== "invalid", "过期时间格式错误！"),
  // The zone the form showed its times in (a hidden field): the expiry is read in the same one.
  tz: z.string().optional(),
  remain_quota: z.coerce
    .number({ error: "额度必须是整数" })
    .int("额度必须是整数")
    .min(0, "额度不能为负数")
    .default(DEFAULT_TOKEN_QUOTA),
  // A checkbox sends "on" when ticked and nothing otherwise.
  unlimited_quota: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true"),
  count: z.coerce
    .number({ error: "数量必须是整数" })
    .int("数量必须是整数")
    .min(1, "数量至少为 1")
    .max(MAX_BATCH_TOKENS, `数量不能超过 ${MAX_BATCH_TOKENS}`)
    .default(1),
  allow_ips: z.string().optional().default(""),
  model_limits_enabled: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true"),
  model_limits: z.array(z.string()).optional().default([]),
  group: z.string().trim().optional().default(""),
  // The form always posts both limits; an emptied field means no limit.
  rpm_limit: rateLimitSchema("rpm_limit").default(0),
  tpm_limit: rateLimitSchema("tpm_limit").default(0),
});

export type TokenConsoleInput = z.infer<typeof tokenConsoleSchema>;

export function toTokenFields(input: TokenConsoleInput, requestZone: string): TokenFields {
  const expiry = parseExpiryInput(input.expired_at ?? "", isTimeZone(input.tz) ? input.tz : requestZone);
  return {
    name: input.name,
    expired_time: expiry === "invalid" ? -1 : expiry,
    remain_quota: input.remain_quota,
    unlimited_quota: input.unlimited_quota,
    model_limits_enabled: input.model_limits_enabled,
    model_limits: input.model_limits.join(","),
    allow_ips: input.allow_ips,
    group: input.group,
    rpm_limit: input.rpm_limit,
    tpm_limit: input.tpm_limit,
  };
}

/** The product's expiry quick buttons, as the text the field should hold. */
export function expiryPresets(nowMs: number, format: (seconds: number) => string): { label: string; value: string }[] {
  const at = (seconds: number) => format(Math.floor(nowMs / 1000) + seconds);
  return [
    { label: "永不过期", value: "" },
    { label: "一小时", value: at(3600) },
    { label: "一天", value: at(86400) },
    { label: "一个月", value: at(30 * 86400) },
  ];
}

export { COUNT_PRESETS, QUOTA_PRESET_DOLLARS } from "./token-constants";
