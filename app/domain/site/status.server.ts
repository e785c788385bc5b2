import { effectiveServerAddress, options } from "~/domain/options/store.server";

const startTime = Math.floor(Date.now() / 1000);
export const APP_VERSION = process.env.npm_package_version ?? "0.1.0";

type ChatPreset = Record<string, string>;

/** `Chats` is stored as an array of `{name: url}`; tolerate an operator's malformed edit. */
function chatPresets(): ChatPreset[] {
  const value = options.json<unknown>("Chats");
  return Array.isArray(value) ? (value.filter((v) => v && typeof v === "object") as ChatPreset[]) : [];
}

/**
 * The public status object of the reference's `GET /api/status` (every key of its §3.4 is
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
    system_name: options.string("SystemName"),
    logo: options.string("Logo"),
    footer_html: options.string("Footer"),
    wechat_qrcode: options.string("WeChatAccountQRCodeImageURL"),
    wechat_login: options.bool("WeChatAuthEnabled"),
    server_address: serverAddress,
    price: options.float("Price"),
    min_topup: options.int("MinTopUp"),
    turnstile_check: options.bool("TurnstileCheckEnabled"),
    turnstile_site_key: options.string("TurnstileSiteKey"),
    top_up_link: options.string("TopUpLink"),
    chat_link: options.string("ChatLink"),
    chat_link2: options.string("ChatLink2"),
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
