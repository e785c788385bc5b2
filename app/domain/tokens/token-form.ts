import { z } from "zod";
import { DEFAULT_TOKEN_QUOTA } from "./token-constants";

/**
 * The token fields of /api (and, mapped, of the console form). Quota arrives as an integer;
 * expiry is unix seconds or -1 for never.
 */

export { TOKEN_STATUS, DEFAULT_TOKEN_QUOTA, MAX_BATCH_TOKENS } from "./token-constants";

const int = (message: string) => z.coerce.number({ error: message }).int(message);

export const tokenFieldsSchema = z.object({
  name: z.string({ error: "请输入名称" }).trim().min(1, "请输入名称").max(50, "令牌名称过长"),
  expired_time: int("过期时间格式错误！").min(-1, "过期时间格式错误！").default(-1),
  remain_quota: int("额度必须是整数").min(0, "额度不能为负数").max(Number.MAX_SAFE_INTEGER).default(DEFAULT_TOKEN_QUOTA),
  unlimited_quota: z.coerce.boolean().default(false),
  model_limits_enabled: z.coerce.boolean().default(false),
  model_limits: z.string().max(10_000).default(""),
  allow_ips: z.string().max(10_000).default(""),
  group: z.string().trim().max(64).default(""),
});

export type TokenFields = z.infer<typeof tokenFieldsSchema>;

export { parseExpiryInput } from "./token-constants";
