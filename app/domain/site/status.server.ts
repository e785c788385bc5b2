import { chatTemplateAllowed } from "~/domain/chats/chat-links";
import { effectiveServerAddress, effectiveSystemName, options } from "~/domain/options/store.server";

const startTime = Math.floor(Date.now() / 1000);
export const APP_VERSION = process.env.npm_package_version ?? "0.1.0";

type ChatPreset = Record<string, string>;

/**
 * `Chats` is stored as an array of `{name: url}`; tolerate an operator's malformed edit. Front-ends
 * open these links as they are, so one that would run script is left out.
 */
function chatPresets(): ChatPreset[] {
  const value = options.json<unknown>("Chats");
  if (!Array.isArray(value)) return [];
  return value
    .filter((v): v is Record<string, unknown> => Boolean(v) && typeof v === "object")
    .map((entry) =>
      Object.fromEntries(
        Object.entries(entry).filter(
          (pair): pair is [string, string] => typeof pair[1] === "string" && chatTemplateAllowed(pair[1]),
        ),
      ),
    )
    .filter((entry) => Object.keys(entry).length > 0);
}

/**
 * The public status object of the reference's `GET /api/status` (every key the reference sends is
 * present, so existing front-ends and scripts keep working). Nothing secret goes here.
 */
export function buildPublicStatus() {
  const serverAddress = effectiveServerAddress();
  return {
    version: APP_VERSION,
    start_time: startTime,
    email_verification: options.bool("EmailVerificationEnabled"),
    github_oauth: options.bool("GitHubOAuthEnabled"),
    github_client_id: options.string("GitHubClientId"),
    telegram_oauth: options.bool("TelegramOAuthEnabled"),
    telegram_bot_name: options.string("TelegramBotName"),
    system_name: effectiveSystemName(),
    // Links go out only as the options accept them today (see options.link).
    logo: options.link("Logo"),
    footer_html: options.string("Footer"),
    wechat_qrcode: options.link("WeChatAccountQRCodeImageURL"),
    wechat_login: options.bool("WeChatAuthEnabled"),
    server_address: serverAddress,
    price: options.float("Price"),
    min_topup: options.int("MinTopUp"),
    turnstile_check: options.bool("TurnstileCheckEnabled"),
    turnstile_site_key: options.string("TurnstileSiteKey"),
    top_up_link: options.link("TopUpLink"),
    chat_link: options.link("ChatLink"),
    chat_link2: options.link("ChatLink2"),
    quota_per_unit: options.float("QuotaPerUnit"),
    display_in_currency: options.bool("DisplayInCurrencyEnabled"),
    enable_batch_update: true,
    enable_drawing: options.bool("DrawingEnabled"),
    enable_task: options.bool("TaskEnabled"),
    enable_data_export: options.bool("DataExportEnabled"),
    data_export_default_time: options.string("DataExportDefaultTime"),
    default_collapse_sidebar: options.bool("DefaultCollapseSidebar"),
    enable_online_topup: Boolean(options.string("PayAddress") && options.string("EpayId") && options.string("EpayKey")),
    mj_notify_enabled: options.bool("MjNotifyEnabled"),
    chats: chatPresets(),
  };
}

export type PublicStatus = ReturnType<typeof buildPublicStatus>;
