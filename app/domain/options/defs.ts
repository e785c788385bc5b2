import { DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from "~/domain/billing/default-ratios";

export type OptionType = "bool" | "int" | "float" | "string" | "json";

export interface OptionDef {
  key: string;
  type: OptionType;
  default: string;
  /** Write-only: never returned by GET /api/option/ nor sent to a browser. */
  secret?: boolean;
  /** For json options: the top-level shape the value must have. */
  jsonShape?: "array" | "number-map" | "string-map";
}

const bool = (key: string, value: boolean): OptionDef => ({ key, type: "bool", default: String(value) });
const int = (key: string, value: number): OptionDef => ({ key, type: "int", default: String(value) });
const float = (key: string, value: number): OptionDef => ({ key, type: "float", default: String(value) });
const str = (key: string, value = ""): OptionDef => ({ key, type: "string", default: value });
const json = (key: string, value: unknown, jsonShape: OptionDef["jsonShape"]): OptionDef => ({ key, type: "json", default: JSON.stringify(value), jsonShape });

// The reference's four chat-client presets; {key} and {address} are filled per token.
const DEFAULT_CHATS = [
  { "ChatGPT Next Web": "https://app.nextchat.dev/#/?settings={\"key\":\"{key}\",\"url\":\"{address}\"}" },
  { "Lobe Chat 官方示例": "https://chat-preview.lobehub.com/?settings={\"keyVaults\":{\"openai\":{\"apiKey\":\"{key}\",\"baseURL\":\"{address}/v1\"}}}" },
  { "AMA 问天": "ama://set-api-key?server={address}&key={key}" },
  { OpenCat: "opencat://team/join?domain={address}&token={key}" },
];

/** Every option of the spec's settings groups, with the reference's defaults (new-api facts §2). */
export const OPTION_DEFS: readonly OptionDef[] = [
  // Login
  bool("PasswordLoginEnabled", true),
  bool("PasswordRegisterEnabled", true),
  bool("EmailVerificationEnabled", false),
  bool("RegisterEnabled", true),
  bool("GitHubOAuthEnabled", false),
  bool("WeChatAuthEnabled", false),
  bool("TelegramOAuthEnabled", false),
  bool("TurnstileCheckEnabled", false),
  // Email domains
  bool("EmailDomainRestrictionEnabled", false),
  bool("EmailAliasRestrictionEnabled", false),
  str("EmailDomainWhitelist", "gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com"),
  // SMTP
  str("SMTPServer"),
  int("SMTPPort", 587),
  str("SMTPAccount"),
  str("SMTPFrom"),
  str("SMTPToken"),
  bool("SMTPSSLEnabled", false),
  // Payment
  str("ServerAddress"),
  str("WorkerUrl"),
  str("WorkerValidKey"),
  str("PayAddress"),
  str("EpayId"),
  str("EpayKey"),
  str("CustomCallbackAddress"),
  float("Price", 7.3),
  int("MinTopUp", 1),
  json("TopupGroupRatio", { default: 1, vip: 1, svip: 1 }, "number-map"),
  // Third-party credentials
  str("GitHubClientId"),
  str("GitHubClientSecret"),
  str("WeChatServerAddress"),
  str("WeChatServerToken"),
  str("WeChatAccountQRCodeImageURL"),
  str("TelegramBotToken"),
  str("TelegramBotName"),
  str("TurnstileSiteKey"),
  str("TurnstileSecretKey"),
  // Appearance and general
  str("Notice"),
  str("SystemName", "Switchyard"),
  str("Logo"),
  str("HomePageContent"),
  str("About"),
  str("Footer"),
  str("TopUpLink"),
  str("ChatLink"),
  str("ChatLink2"),
  float("QuotaPerUnit", 500000),
  int("RetryTimes", 3),
  bool("DisplayInCurrencyEnabled", true),
  bool("DisplayTokenStatEnabled", true),
  bool("DefaultCollapseSidebar", false),
  json("Chats", DEFAULT_CHATS, "array"),
  // Drawing and tasks
  bool("DrawingEnabled", true),
  bool("TaskEnabled", true),
  bool("MjNotifyEnabled", false),
  bool("MjAccountFilterEnabled", false),
  bool("MjForwardUrlEnabled", true),
  bool("MjModeClearEnabled", false),
  bool("MjActionCheckSuccessEnabled", true),
  // Sensitive words
  bool("CheckSensitiveEnabled", true),
  bool("CheckSensitiveOnPromptEnabled", true),
  bool("StopOnSensitiveEnabled", true),
  str("SensitiveWords", "test_sensitive"),
  int("StreamCacheQueueLength", 0),
  // Logs and dashboard
  bool("LogConsumeEnabled", true),
  bool("DataExportEnabled", true),
  int("DataExportInterval", 5),
  str("DataExportDefaultTime", "hour"),
  // Monitoring
  float("ChannelDisableThreshold", 5),
  int("QuotaRemindThreshold", 1000),
  bool("AutomaticDisableChannelEnabled", false),
  bool("AutomaticEnableChannelEnabled", false),
  // Quota
  int("QuotaForNewUser", 0),
  int("PreConsumedQuota", 500),
  int("QuotaForInviter", 0),
  int("QuotaForInvitee", 0),
  // Ratios
  json("ModelPrice", DEFAULT_MODEL_PRICE, "number-map"),
  json("ModelRatio", DEFAULT_MODEL_RATIO, "number-map"),
  json("CompletionRatio", DEFAULT_COMPLETION_RATIO, "number-map"),
  json("GroupRatio", { default: 1, vip: 1, svip: 1 }, "number-map"),
  json("UserUsableGroups", { default: "默认分组", vip: "vip分组" }, "string-map"),
  // Permissions
  int("FileUploadPermission", 0),
  int("FileDownloadPermission", 0),
  int("ImageUploadPermission", 0),
  int("ImageDownloadPermission", 0),
].map((def) => (/(Token|Secret|Key)$/.test(def.key) ? { ...def, secret: true } : def));
