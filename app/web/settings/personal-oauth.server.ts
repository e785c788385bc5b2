import { data } from "@remix-run/node";
import type { User } from "../../../db/schema";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { oauthRateLimited, telegramBind, wechatBind } from "../oauth.server";
import type { SettingsActionResult } from "./tabs";

/**
 * The personal tab's third-party bindings (GitHub, WeChat, Telegram): what is bound (read-only)
 * and which providers the operator has switched on. GitHub binds through its own round trip
 * (/oauth/github/start while signed in); WeChat and Telegram post here.
 */
export function loadOAuthBindings(user: User) {
  return {
    oauth: {
      githubId: user.github_id,
      wechatId: user.wechat_id,
      telegramId: user.telegram_id,
      githubEnabled: options.bool("GitHubOAuthEnabled"),
      wechatEnabled: options.bool("WeChatAuthEnabled"),
      wechatQrCode: options.link("WeChatAccountQRCodeImageURL"),
      telegramEnabled: options.bool("TelegramOAuthEnabled"),
      telegramBotName: options.string("TelegramBotName"),
    },
  };
}

export const OAUTH_BIND_INTENTS = ["bind-wechat", "bind-telegram"] as const;

export async function oauthBindAction(user: User, intent: string, form: FormData, request: Request) {
  if (await oauthRateLimited(request))
    return data<SettingsActionResult>({ intent, error: messages.tooManyRequests }, { status: 429 });
  if (intent === "bind-wechat") {
    const outcome = await wechatBind(user, String(form.get("code") ?? ""));
    if (!outcome.ok)
      return data<SettingsActionResult>({ intent, fieldErrors: { code: [outcome.message] } }, { status: 400 });
    return redirectWithFlash("/setting", { type: "success", message: messages.wechatBound });
  }
  const params = new URLSearchParams();
  for (const [key, value] of form) if (typeof value === "string" && key !== "intent") params.append(key, value);
  const outcome = await telegramBind(user, params);
  if (!outcome.ok) return data<SettingsActionResult>({ intent, error: outcome.message }, { status: 400 });
  return redirectWithFlash("/setting", { type: "success", message: messages.telegramBound });
}
