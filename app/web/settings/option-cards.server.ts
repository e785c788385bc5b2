import type { OptionKey } from "~/domain/options/registry";

/**
 * Which option keys each settings card owns (docs/product.md, Settings). The server
 * trusts only this map: a card's form names its card in `intent`, and whatever other field
 * names arrive are ignored, so a tampered form cannot reach another card's keys.
 */
export type FieldKind = "text" | "url" | "number" | "textarea" | "json" | "bool" | "secret" | "select";

export type CardField = {
  key: OptionKey;
  label: string;
  kind: FieldKind;
  choices?: readonly { value: string; label: string }[];
  help?: string;
  /** JSON fields: the message for text that does not parse (docs/product.md, Settings). */
  jsonMessage?: string;
};

export type OptionCard = {
  intent: string;
  title: string;
  fields: readonly CardField[];
  /** docs/product.md, Settings: these need a server address saved or submitted first. */
  needsServerAddress?: boolean;
};

const b = (key: OptionKey, label: string): CardField => ({ key, label, kind: "bool" });
const t = (key: OptionKey, label: string, help?: string): CardField => ({ key, label, kind: "text", help });
const u = (key: OptionKey, label: string, help?: string): CardField => ({ key, label, kind: "url", help });
// A number's range and step are the option registry's (cardView puts them on the field).
const n = (key: OptionKey, label: string, help?: string): CardField => ({ key, label, kind: "number", help });
const s = (key: OptionKey, label: string): CardField => ({ key, label, kind: "secret" });
const j = (key: OptionKey, label: string, jsonMessage: string = "不是合法的 JSON 字符串"): CardField => ({
  key,
  label,
  kind: "json",
  jsonMessage,
});

export const OPERATION_CARDS: readonly OptionCard[] = [
  {
    intent: "general",
    title: "通用设置",
    fields: [
      t("TopUpLink", "充值链接", "例如发卡网站的购买链接"),
      t("ChatLink", "默认聊天页面链接", "{key} 替换为令牌，{address} 替换为服务器地址"),
      t("ChatLink2", "聊天页面 2 链接"),
      n("QuotaPerUnit", "单位美元额度", "一单位货币能兑换的额度"),
      n("RetryTimes", "失败重试次数"),
      b("DisplayInCurrencyEnabled", "以货币形式显示额度"),
      b("DisplayTokenStatEnabled", "Billing 相关 API 显示令牌额度而非用户额度"),
      b("DefaultCollapseSidebar", "默认折叠侧边栏"),
    ],
  },
  {
    intent: "drawing",
    title: "绘图设置",
    fields: [
      b("DrawingEnabled", "启用绘图功能"),
      b("MjNotifyEnabled", "允许回调（会泄露服务器 IP 地址）"),
      b("MjAccountFilterEnabled", "允许 AccountFilter 参数"),
      b("MjForwardUrlEnabled", "开启之后将上游地址替换为服务器地址"),
      b("MjModeClearEnabled", "开启之后会清除用户提示词中的 --fast、--relax 以及 --turbo 参数"),
      b("MjActionCheckSuccessEnabled", "检测必须等待绘图成功才能进行放大等操作"),
    ],
  },
  {
    intent: "sensitive",
    title: "屏蔽词过滤设置",
    fields: [
      b("CheckSensitiveEnabled", "启用屏蔽词过滤功能"),
      b("CheckSensitiveOnPromptEnabled", "启用 Prompt 检查"),
      { key: "SensitiveWords", label: "屏蔽词列表", kind: "textarea", help: "一行一个屏蔽词，不需要符号分割" },
    ],
  },
  {
    intent: "log",
    title: "日志设置",
    fields: [
      b("LogConsumeEnabled", "启用额度消费日志记录"),
      n(
        "LogRetentionDays",
        "日志保留天数",
        "超过此天数的日志由后台任务每小时清理一次（整月删除分区，其余分批删除）；0 表示永久保留。数据看板的汇总数据不受影响",
      ),
    ],
  },
  {
    intent: "dashboard",
    title: "数据看板设置",
    fields: [
      b("DataExportEnabled", "启用数据看板（实验性）"),
      n("DataExportInterval", "数据看板更新间隔（分钟）", "设置过短会影响数据库性能"),
      {
        key: "DataExportDefaultTime",
        label: "数据看板默认时间粒度",
        kind: "select",
        choices: [
          { value: "hour", label: "小时" },
          { value: "day", label: "天" },
          { value: "week", label: "周" },
        ],
      },
    ],
  },
  {
    intent: "monitoring",
    title: "监控设置",
    fields: [
      n("ChannelDisableThreshold", "最长响应时间（秒）", "当运行通道全部测试时，超过此时间将自动禁用通道"),
      n("QuotaRemindThreshold", "额度提醒阈值", "低于此额度时将发送邮件提醒用户"),
      n(
        "ChannelTestFrequency",
        "自动测试所有通道间隔（分钟）",
        "0 表示使用环境变量 CHANNEL_TEST_FREQUENCY，未设置则不自动测试",
      ),
      n(
        "ChannelUpdateFrequency",
        "自动更新所有通道余额间隔（分钟）",
        "0 表示使用环境变量 CHANNEL_UPDATE_FREQUENCY，未设置则不自动更新",
      ),
      b("AutomaticDisableChannelEnabled", "失败时自动禁用通道"),
      b("AutomaticEnableChannelEnabled", "成功时自动启用通道"),
    ],
  },
  {
    intent: "quota",
    title: "额度设置",
    fields: [
      n("QuotaForNewUser", "新用户初始额度"),
      n("PreConsumedQuota", "请求预扣费额度", "请求结束后多退少补"),
      n("QuotaForInviter", "邀请新用户奖励额度"),
      n("QuotaForInvitee", "新用户使用邀请码奖励额度"),
    ],
  },
  {
    intent: "rate-limit",
    title: "模型请求速率限制",
    fields: [
      b("ModelRequestRateLimitEnabled", "启用用户模型请求速率限制（可能会影响高并发性能）"),
      n("ModelRequestRateLimitDurationMinutes", "限制周期（分钟）", "频率限制的周期"),
      n("ModelRequestRateLimitCount", "用户每周期最多请求次数", "包括失败请求的次数，0 代表不限制"),
      n("ModelRequestRateLimitSuccessCount", "用户每周期最多请求完成次数", "只包括请求成功的次数，0 代表不限制"),
    ],
  },
  { intent: "chats", title: "聊天设置", fields: [j("Chats", "聊天配置（JSON 数组，{key} 与 {address} 会被替换）")] },
  {
    intent: "ratio",
    title: "倍率设置",
    fields: [
      j("ModelPrice", "模型固定价格（一次调用消耗多少美元，优先于模型倍率）"),
      j("ModelRatio", "模型倍率"),
      j("CompletionRatio", "补全倍率（仅对自定义模型有效）"),
      j(
        "CacheRatio",
        "缓存倍率（命中提示缓存的输入 token 按模型倍率 × 此倍率计费；未列出的模型按服务商公布的默认值，无默认值时为 1）",
      ),
      j("CreateCacheRatio", "缓存创建倍率（写入提示缓存的输入 token，如 Claude 为 1.25）"),
      j(
        "ModelContextLength",
        "模型上下文长度（一次调用最多计费的 token 数；上游报告更多时按此计费并记入日志，未列出的模型按 RELAY_USAGE_CEILING）",
      ),
      j("GroupRatio", "分组倍率"),
      j("UserUsableGroups", "用户可选分组"),
    ],
  },
];

export const SYSTEM_CARDS: readonly OptionCard[] = [
  {
    intent: "general",
    title: "通用设置",
    fields: [u("ServerAddress", "服务器地址", "例如 https://yourdomain.com，末尾的 / 会被去掉")],
  },
  {
    intent: "worker",
    title: "代理设置",
    fields: [
      u("WorkerUrl", "Worker 地址，不填写则不启用代理", "例如 https://workername.yourdomain.workers.dev"),
      s("WorkerValidKey", "Worker 密钥"),
    ],
  },
  {
    intent: "payment",
    title: "支付设置",
    needsServerAddress: true,
    fields: [
      u("PayAddress", "支付地址"),
      t("EpayId", "易支付商户 ID"),
      s("EpayKey", "易支付商户密钥"),
      u("CustomCallbackAddress", "回调地址", "不填则使用服务器地址"),
      n("Price", "充值价格（x 元/美金）"),
      n("MinTopUp", "最低充值美元数量"),
      j("TopupGroupRatio", "充值分组倍率", "充值分组倍率不是合法的 JSON 字符串"),
    ],
  },
  {
    intent: "login",
    title: "配置登录注册",
    fields: [
      {
        ...b("PasswordLoginEnabled", "允许通过密码进行登录"),
        help: "关闭后，未绑定其他登录方式的用户将无法登录；关闭时需再次确认",
      },
      b("PasswordRegisterEnabled", "允许通过密码进行注册"),
      b("EmailVerificationEnabled", "通过密码注册时需要进行邮箱验证"),
      b("RegisterEnabled", "允许新用户注册（此项为否时，新用户将无法以任何方式进行注册）"),
      b("GitHubOAuthEnabled", "允许通过 GitHub 账户登录 & 注册"),
      b("WeChatAuthEnabled", "允许通过微信登录 & 注册"),
      b("TelegramOAuthEnabled", "允许通过 Telegram 进行登录"),
      b("TurnstileCheckEnabled", "启用 Turnstile 用户校验"),
    ],
  },
  {
    intent: "email-domain",
    title: "配置邮箱域名白名单",
    fields: [
      b("EmailDomainRestrictionEnabled", "启用邮箱域名白名单"),
      b("EmailAliasRestrictionEnabled", "启用邮箱别名限制（例如：ab.cd@gmail.com）"),
      {
        key: "EmailDomainWhitelist",
        label: "允许的邮箱域名",
        kind: "textarea",
        help: "以英文逗号分隔，例如 gmail.com,qq.com",
      },
    ],
  },
  {
    intent: "smtp",
    title: "配置 SMTP",
    fields: [
      t("SMTPServer", "SMTP 服务器地址", "例如 smtp.qq.com"),
      n("SMTPPort", "SMTP 端口", "默认 587"),
      t("SMTPAccount", "SMTP 账户", "通常是邮箱地址"),
      t("SMTPFrom", "SMTP 发送者邮箱", "通常和邮箱地址保持一致"),
      s("SMTPToken", "SMTP 访问凭证"),
      b("SMTPSSLEnabled", "启用 SMTP SSL"),
    ],
  },
  {
    intent: "github",
    title: "配置 GitHub OAuth App",
    fields: [t("GitHubClientId", "GitHub Client ID"), s("GitHubClientSecret", "GitHub Client Secret")],
  },
  {
    intent: "wechat",
    title: "配置 WeChat Server",
    fields: [
      u("WeChatServerAddress", "WeChat Server 服务器地址"),
      s("WeChatServerToken", "WeChat Server 访问凭证"),
      t("WeChatAccountQRCodeImageURL", "微信公众号二维码图片链接"),
    ],
  },
  {
    intent: "telegram",
    title: "配置 Telegram 登录",
    fields: [s("TelegramBotToken", "Telegram Bot Token"), t("TelegramBotName", "Telegram Bot 名称")],
  },
  {
    intent: "turnstile",
    title: "配置 Turnstile",
    // The site key is public on the login page, but the registry (and GET /api/option/, as in the reference) treats every *Key as write-only.
    fields: [s("TurnstileSiteKey", "Turnstile Site Key"), s("TurnstileSecretKey", "Turnstile Secret Key")],
  },
];

/** Addresses lose a trailing slash before they are stored (docs/product.md, Settings). */
export const TRAILING_SLASH_KEYS: ReadonlySet<OptionKey> = new Set<OptionKey>([
  "ServerAddress",
  "WorkerUrl",
  "PayAddress",
  "CustomCallbackAddress",
  "WeChatServerAddress",
]);

/** Switching these off is asked twice (docs/product.md, Settings: password login off needs a confirmation). */
export const CONFIRM_OFF_KEYS: ReadonlySet<OptionKey> = new Set<OptionKey>(["PasswordLoginEnabled"]);

export function findCard(cards: readonly OptionCard[], intent: string): OptionCard | undefined {
  return cards.find((card) => card.intent === intent);
}
