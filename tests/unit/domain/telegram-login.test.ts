import { describe, expect, it } from "vitest";
import {
  checkTelegramLogin,
  telegramDataCheckString,
  telegramHash,
  TELEGRAM_MAX_AGE_SECONDS,
} from "~/domain/auth/telegram-login";

// Telegram's login widget check (core.telegram.org/widgets/login#checking-authorization).
const TOKEN = "123456:ABC-test-token";
const NOW = 1735689600;

function signed(fields: Record<string, string>, token = TOKEN, extra: Record<string, string> = {}) {
  return new URLSearchParams({ ...fields, hash: telegramHash(fields, token), ...extra });
}

describe("Telegram login widget check", () => {
  it("matches the worked example of Telegram's login check (sorted key=value lines, HMAC-SHA256 under SHA256(token))", () => {
    const fields = { id: "42", first_name: "Ada", username: "ada", auth_date: "1735689600" };
    expect(telegramDataCheckString(fields)).toBe("auth_date=1735689600\nfirst_name=Ada\nid=42\nusername=ada");
    expect(telegramHash(fields, TOKEN)).toBe("3b9be64637995342c48f7f9d1832eb4503ac21eadf77f07da5856dc993e6b777");
  });

  it("accepts a signed login, ignoring parameters that are not the widget's (lang)", () => {
    const result = checkTelegramLogin(
      signed({ id: "42", first_name: "Ada", last_name: "Lovelace", auth_date: String(NOW) }, TOKEN, { lang: "zh" }),
      TOKEN,
      NOW + 10,
    );
    expect(result).toEqual({ ok: true, value: { id: "42", displayName: "Ada Lovelace", username: "" } });
  });

  it("refuses a changed field, another bot's signature, a missing id or hash, and a duplicated field", () => {
    const fields = { id: "42", first_name: "Ada", auth_date: String(NOW) };
    const tampered = signed(fields);
    tampered.set("id", "43");
    expect(checkTelegramLogin(tampered, TOKEN, NOW).ok).toBe(false);
    expect(checkTelegramLogin(signed(fields, "999:other"), TOKEN, NOW).ok).toBe(false);
    expect(checkTelegramLogin(signed({ first_name: "Ada", auth_date: String(NOW) }), TOKEN, NOW).ok).toBe(false);
    const noHash = signed(fields);
    noHash.delete("hash");
    expect(checkTelegramLogin(noHash, TOKEN, NOW).ok).toBe(false);
    const twice = signed(fields);
    twice.append("id", "42");
    expect(checkTelegramLogin(twice, TOKEN, NOW).ok).toBe(false);
    expect(checkTelegramLogin(signed(fields), "", NOW).ok).toBe(false);
  });

  it("refuses a login older than a day or from the future (beyond a minute of clock skew)", () => {
    const at = (authDate: number) => signed({ id: "42", auth_date: String(authDate) });
    expect(checkTelegramLogin(at(NOW - TELEGRAM_MAX_AGE_SECONDS), TOKEN, NOW).ok).toBe(true);
    expect(checkTelegramLogin(at(NOW - TELEGRAM_MAX_AGE_SECONDS - 1), TOKEN, NOW)).toEqual({
      ok: false,
      message: "Telegram 登录信息已过期，请重新登录",
    });
    expect(checkTelegramLogin(at(NOW + 30), TOKEN, NOW).ok).toBe(true);
    expect(checkTelegramLogin(at(NOW + 3600), TOKEN, NOW).ok).toBe(false);
  });
});
