import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Result } from "~/utils/result";

/**
 * Telegram's login widget check (core.telegram.org/widgets/login#checking-authorization): the
 * widget's fields except `hash`, as `key=value` sorted by key and joined by "\n", signed with
 * HMAC-SHA256 under SHA256(bot token). Only the widget's own fields enter the string (the
 * reference took every query parameter, so `lang` or any extra broke it), the hash is compared in
 * constant time, and `auth_date` must be recent: the signature alone never expires, so a leaked
 * login link would otherwise work forever.
 */
export const TELEGRAM_FIELDS = ["id", "first_name", "last_name", "username", "photo_url", "auth_date"] as const;
export const TELEGRAM_MAX_AGE_SECONDS = 86_400;
// A phone's clock a little ahead of ours is not an attack.
const CLOCK_SKEW_SECONDS = 60;

export type TelegramIdentity = { id: string; displayName: string; username: string };
export type TelegramCheck = Result<TelegramIdentity>;

export function telegramDataCheckString(fields: Record<string, string>): string {
  return Object.keys(fields)
    .filter((k) => k !== "hash")
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n");
}

export function telegramHash(fields: Record<string, string>, botToken: string): string {
  const secret = createHash("sha256").update(botToken).digest();
  return createHmac("sha256", secret).update(telegramDataCheckString(fields)).digest("hex");
}

/** Checks a widget login (query parameters as received) against the bot token, at `nowSeconds`. */
export function checkTelegramLogin(
  params: URLSearchParams,
  botToken: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): TelegramCheck {
  const invalid = { ok: false as const, message: "无效的请求" };
  if (!botToken) return { ok: false, message: "管理员未配置 Telegram 机器人" };
  const fields: Record<string, string> = {};
  for (const name of TELEGRAM_FIELDS) {
    const values = params.getAll(name);
    if (values.length > 1) return invalid;
    if (values.length === 1) fields[name] = values[0]!;
  }
  const hash = params.get("hash") ?? "";
  const id = fields.id ?? "";
  const authDate = fields.auth_date ?? "";
  if (!/^\d{1,20}$/.test(id) || !/^\d{1,12}$/.test(authDate) || !/^[0-9a-f]{64}$/i.test(hash)) return invalid;
  const expected = Buffer.from(telegramHash(fields, botToken), "hex");
  if (!timingSafeEqual(expected, Buffer.from(hash.toLowerCase(), "hex"))) return invalid;
  const age = nowSeconds - Number(authDate);
  if (age > TELEGRAM_MAX_AGE_SECONDS || age < -CLOCK_SKEW_SECONDS)
    return { ok: false, message: "Telegram 登录信息已过期，请重新登录" };
  const name = [fields.first_name, fields.last_name].filter(Boolean).join(" ").trim();
  return {
    ok: true,
    value: {
      id,
      displayName: (name || fields.username || "Telegram User").slice(0, 20),
      username: fields.username ?? "",
    },
  };
}
