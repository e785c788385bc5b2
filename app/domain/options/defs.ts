import { DEFAULT_CACHE_RATIO, DEFAULT_CREATE_CACHE_RATIO } from "~/domain/billing/cache-ratios";
import { DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from "~/domain/billing/default-ratios";
import { DEFAULT_MODEL_CONTEXT_LENGTH } from "~/domain/billing/context-lengths";

export type OptionType = "bool" | "int" | "float" | "string" | "json";

export interface OptionDef<K extends string = OptionKey> {
  key: K;
  type: OptionType;
  default: string;
  /** Write-only: never returned by GET /api/option/ nor sent to a browser. */
  secret?: boolean;
  /** For json options: the top-level shape the value must have (`chat-presets`: an array whose links may be opened). */
  jsonShape?: "chat-presets" | "number-map" | "string-map";
  /** Numbers: inclusive range; `above` is an exclusive lower bound (a divisor must not be 0). */
  min?: number;
  max?: number;
  above?: number;
  /** Strings: the only values allowed, or `url` (empty, or an http(s) address). */
  values?: readonly string[];
  url?: boolean;
  /** With `url`: a path of this site (one leading `/`) is accepted too, as for an image the server itself serves. */
  sitePath?: boolean;
  /** An address this server itself calls, with a secret: link-local and cloud-metadata hosts are refused (decision 018). */
  fetched?: boolean;
  /** Strings and JSON: longest accepted text. */
  maxLength?: number;
}

export type OptionBounds = Pick<
  OptionDef,
  "min" | "max" | "above" | "values" | "url" | "sitePath" | "fetched" | "maxLength"
>;

// Each helper keeps its key's literal type, so the list below defines OptionKey.
const bool = <K extends string>(key: K, value: boolean): OptionDef<K> => ({
  key,
  type: "bool",
  default: String(value),
});
const int = <K extends string>(key: K, value: number): OptionDef<K> => ({ key, type: "int", default: String(value) });
const float = <K extends string>(key: K, value: number): OptionDef<K> => ({
  key,
  type: "float",
  default: String(value),
});
const str = <K extends string>(key: K, value = ""): OptionDef<K> => ({ key, type: "string", default: value });
const json = <K extends string>(key: K, value: unknown, jsonShape: OptionDef<string>["jsonShape"]): OptionDef<K> => ({
  key,
  type: "json",
  default: JSON.stringify(value),
  jsonShape,
});

// The reference's four chat-client presets; {key} and {address} are filled per token.
const DEFAULT_CHATS = [
  { "ChatGPT Next Web": 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
  {
    "Lobe Chat 官方示例":
      'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}',
  },
  { "AMA 问天": "ama://set-api-key?server={address}&key={key}" },
  { OpenCat: "opencat://team/join?domain={address}&token={key}" },
];

/** The name the header, title and mails show while SystemName is unset or cleared. */
export const DEFAULT_SYSTEM_NAME = "Switchyard";

const QUOTA_MAX = Number.MAX_SAFE_INTEGER;
const LONG_TEXT = 1_000_000;
const ROLE_MAX = 100;

/**
 * What a value may be, beyond its type (QuotaPerUnit=0 or RetryTimes=1e9 were accepted
 * and broke the gateway). Kept beside the defaults rather than in their lines so a default can
 * change without touching its bounds. Every number has a range (a unit test holds every def to it).
 */
const OPTION_BOUNDS: Partial<Record<OptionKey, OptionBounds>> = {
  SMTPPort: { min: 1, max: 65535 },
  ServerAddress: { url: true },
  WorkerUrl: { url: true },
  PayAddress: { url: true },
  CustomCallbackAddress: { url: true },
  // The WeChat login server gets WeChatServerToken with every call (reference fault OA #2409).
  WeChatServerAddress: { url: true, fetched: true },
  // Links the console renders as an href or an image: a `javascript:` one would run script on
  // its origin. Images may be served by this site itself (/logo.svg).
  Logo: { url: true, sitePath: true },
  WeChatAccountQRCodeImageURL: { url: true, sitePath: true },
  TopUpLink: { url: true },
  ChatLink: { url: true },
  ChatLink2: { url: true },
  // docs/product.md, Settings: the minimum top-up is at least 1 and Price at least 0.
  Price: { min: 0, max: 1_000_000 },
  MinTopUp: { min: 1, max: 1_000_000 },
  Notice: { maxLength: LONG_TEXT },
  HomePageContent: { maxLength: LONG_TEXT },
  About: { maxLength: LONG_TEXT },
  Footer: { maxLength: LONG_TEXT },
  SensitiveWords: { maxLength: LONG_TEXT },
  EmailDomainWhitelist: { maxLength: LONG_TEXT },
  // Quota = tokens * ratio; price per unit divides by it.
  QuotaPerUnit: { above: 0, max: 1e12 },
  // Each retry is another upstream call for one client request.
  RetryTimes: { min: 0, max: 10 },
  StreamCacheQueueLength: { min: 0, max: 10_000 },
  DataExportInterval: { min: 1, max: 1440 },
  DataExportDefaultTime: { values: ["hour", "day", "week"] },
  // Seconds of response time after which a tested channel is disabled.
  ChannelDisableThreshold: { min: 0, max: 86_400 },
  QuotaRemindThreshold: { min: 0, max: QUOTA_MAX },
  // Schedules (decision 029), minutes, 0 = off; fractions allowed (tests run them every few seconds). At most a week.
  ChannelTestFrequency: { min: 0, max: 10_080 },
  ChannelUpdateFrequency: { min: 0, max: 10_080 },
  // Days of logs kept (0 = forever); at most 100 years.
  LogRetentionDays: { min: 0, max: 36_500 },
  QuotaForNewUser: { min: 0, max: QUOTA_MAX },
  PreConsumedQuota: { min: 0, max: QUOTA_MAX },
  // A user's model requests per period (decision 041): the period in minutes, at most a day.
  ModelRequestRateLimitDurationMinutes: { min: 1, max: 1440 },
  ModelRequestRateLimitCount: { min: 0, max: 100_000_000 },
  ModelRequestRateLimitSuccessCount: { min: 0, max: 100_000_000 },
  QuotaForInviter: { min: 0, max: QUOTA_MAX },
  QuotaForInvitee: { min: 0, max: QUOTA_MAX },
  FileUploadPermission: { min: 0, max: ROLE_MAX },
  FileDownloadPermission: { min: 0, max: ROLE_MAX },
  ImageUploadPermission: { min: 0, max: ROLE_MAX },
  ImageDownloadPermission: { min: 0, max: ROLE_MAX },
};

/** Strings get a length cap, JSON maps room for long ratio tables (non-negative finite values: registry). */
function defaultBounds(def: OptionDef<string>): OptionBounds {
  if (def.type === "string") return { maxLength: 4096 };
  if (def.type === "json") return { maxLength: LONG_TEXT };
  return {};
}

/** Every option of the settings groups (docs/product.md, Settings), with the reference's defaults. */
const OPTION_LIST = [
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
  str(
    "EmailDomainWhitelist",
    "gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com",
  ),
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
  str("SystemName", DEFAULT_SYSTEM_NAME),
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
  json("Chats", DEFAULT_CHATS, "chat-presets"),
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
  int("LogRetentionDays", 0),
  bool("DataExportEnabled", true),
  int("DataExportInterval", 5),
  str("DataExportDefaultTime", "hour"),
  // Monitoring
  float("ChannelDisableThreshold", 5),
  int("QuotaRemindThreshold", 1000),
  bool("AutomaticDisableChannelEnabled", false),
  bool("AutomaticEnableChannelEnabled", false),
  // 0 here: the CHANNEL_TEST_FREQUENCY / CHANNEL_UPDATE_FREQUENCY environment variables decide (reference: env only).
  float("ChannelTestFrequency", 0),
  float("ChannelUpdateFrequency", 0),
  // Quota
  int("QuotaForNewUser", 0),
  int("PreConsumedQuota", 500),
  int("QuotaForInviter", 0),
  int("QuotaForInvitee", 0),
  // A user's model requests per period, the reference's names and defaults (0 = no limit).
  bool("ModelRequestRateLimitEnabled", false),
  int("ModelRequestRateLimitDurationMinutes", 1),
  int("ModelRequestRateLimitCount", 0),
  int("ModelRequestRateLimitSuccessCount", 1000),
  // Ratios
  json("ModelPrice", DEFAULT_MODEL_PRICE, "number-map"),
  json("ModelRatio", DEFAULT_MODEL_RATIO, "number-map"),
  json("CompletionRatio", DEFAULT_COMPLETION_RATIO, "number-map"),
  json("CacheRatio", DEFAULT_CACHE_RATIO, "number-map"),
  json("CreateCacheRatio", DEFAULT_CREATE_CACHE_RATIO, "number-map"),
  json("ModelContextLength", DEFAULT_MODEL_CONTEXT_LENGTH, "number-map"),
  json("GroupRatio", { default: 1, vip: 1, svip: 1 }, "number-map"),
  json("UserUsableGroups", { default: "默认分组", vip: "vip分组" }, "string-map"),
  // Permissions
  int("FileUploadPermission", 0),
  int("FileDownloadPermission", 0),
  int("ImageUploadPermission", 0),
  int("ImageDownloadPermission", 0),
];

/** Every option's name: a read of a name not in the list above does not compile. */
export type OptionKey = (typeof OPTION_LIST)[number]["key"];

export const OPTION_DEFS: readonly OptionDef[] = OPTION_LIST.map((def) =>
  /(Token|Secret|Key)$/.test(def.key) ? { ...def, secret: true } : def,
).map((def) => ({ ...def, ...defaultBounds(def), ...OPTION_BOUNDS[def.key] }));
