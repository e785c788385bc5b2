import { chatTemplateAllowed } from "~/domain/chats/chat-links";
import { isAllowedLink } from "~/utils/safe-link";
import { upstreamUrlRefusal } from "~/utils/upstream-address";
import { OPTION_DEFS, type OptionDef, type OptionKey } from "./defs";
import type { Result } from "~/utils/result";

export { OPTION_DEFS, type OptionDef, type OptionKey, type OptionType } from "./defs";

// Looked up by any string: names arrive from forms and the /api, and an unknown one is refused.
const byKey = new Map<string, OptionDef>(OPTION_DEFS.map((def) => [def.key, def]));

export function getOptionDef(key: string): OptionDef | undefined {
  return byKey.get(key);
}

/** Whether a name from outside (a form field, an /api body) is a registered option. */
export function isOptionKey(key: string): key is OptionKey {
  return byKey.has(key);
}

export type ValidatedOption = Result<string>;

function checkJsonShape(def: OptionDef, parsed: unknown): string | undefined {
  const isObject = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  switch (def.jsonShape) {
    case "chat-presets":
      return Array.isArray(parsed) ? chatPresetLinkProblem(parsed) : `${def.key} 必须是 JSON 数组`;
    case "number-map":
      if (!isObject) return `${def.key} 必须是 JSON 对象`;
      for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
        if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
          return `${def.key} 中 ${name} 的值必须是非负数`;
      }
      return undefined;
    case "string-map":
      if (!isObject) return `${def.key} 必须是 JSON 对象`;
      for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
        if (typeof value !== "string") return `${def.key} 中 ${name} 的值必须是字符串`;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The first preset whose link would run script (entries of another shape are the chat pages' to refuse). */
function chatPresetLinkProblem(presets: unknown[]): string | undefined {
  for (const entry of presets) {
    if (!entry || typeof entry !== "object") continue;
    for (const [name, template] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof template === "string" && !chatTemplateAllowed(template))
        return `聊天配置中「${name}」的链接必须是 http(s) 地址或聊天应用的链接（如 ama://）`;
    }
  }
  return undefined;
}

function checkNumberBounds(def: OptionDef, n: number): string | undefined {
  if (def.above !== undefined && !(n > def.above)) return `配置项 ${def.key} 的值必须大于 ${def.above}`;
  if ((def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
    return `配置项 ${def.key} 的值必须在 ${def.min ?? def.above ?? 0} 到 ${def.max ?? "∞"} 之间`;
  }
  return undefined;
}

function checkStringBounds(def: OptionDef, value: string): string | undefined {
  if (def.maxLength !== undefined && value.length > def.maxLength)
    return `配置项 ${def.key} 的值过长（最多 ${def.maxLength} 个字符）`;
  if (def.values && !def.values.includes(value))
    return `配置项 ${def.key} 的值必须是以下之一：${def.values.join("、")}`;
  if (def.url && value !== "") {
    if (!isAllowedLink(value, def.sitePath))
      return def.sitePath
        ? `配置项 ${def.key} 必须是 http(s) 地址或以 / 开头的站内路径`
        : `配置项 ${def.key} 必须是 http(s) 地址`;
    if (def.fetched) {
      const refusal = upstreamUrlRefusal(value);
      if (refusal) return refusal;
    }
  }
  return undefined;
}

/** Checks and normalises a value before it is stored; an invalid value is never written. */
export function validateOptionValue(key: string, raw: string): ValidatedOption {
  const def = byKey.get(key);
  if (!def) return { ok: false, message: `未知的配置项：${key}` };
  const typed = validateType(def, raw);
  if (!typed.ok) return typed;
  const problem =
    def.type === "int" || def.type === "float"
      ? checkNumberBounds(def, Number(typed.value))
      : checkStringBounds(def, typed.value);
  return problem ? { ok: false, message: problem } : typed;
}

function validateType(def: OptionDef, raw: string): ValidatedOption {
  const key = def.key;
  const value = raw.trim();
  switch (def.type) {
    case "bool":
      if (value !== "true" && value !== "false")
        return { ok: false, message: `配置项 ${key} 的值必须是 true 或 false` };
      return { ok: true, value };
    case "int":
      if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
        return { ok: false, message: `配置项 ${key} 的值必须是整数` };
      if (Number(value) < 0) return { ok: false, message: `配置项 ${key} 的值不能为负数` };
      return { ok: true, value: String(Number(value)) };
    case "float":
      if (value === "" || !Number.isFinite(Number(value)))
        return { ok: false, message: `配置项 ${key} 的值必须是数字` };
      if (Number(value) < 0) return { ok: false, message: `配置项 ${key} 的值不能为负数` };
      return { ok: true, value: String(Number(value)) };
    case "json": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return { ok: false, message: `配置项 ${key} 不是合法的 JSON` };
      }
      const problem = checkJsonShape(def, parsed);
      return problem ? { ok: false, message: problem } : { ok: true, value: JSON.stringify(parsed) };
    }
    default:
      return { ok: true, value: raw };
  }
}

/** The reference's cross-option rules: a login method cannot be switched on without what it needs. */
export function checkOptionPreconditions(
  key: string,
  value: string,
  current: (k: string) => string,
): string | undefined {
  if (value !== "true") return undefined;
  switch (key) {
    case "GitHubOAuthEnabled":
      return current("GitHubClientId")
        ? undefined
        : "无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！";
    case "EmailDomainRestrictionEnabled":
      return current("EmailDomainWhitelist") ? undefined : "无法启用邮箱域名限制，请先填入限制的邮箱域名！";
    case "WeChatAuthEnabled":
      return current("WeChatServerAddress") ? undefined : "无法启用微信登录，请先填入微信登录相关配置信息！";
    case "TurnstileCheckEnabled":
      return current("TurnstileSiteKey") ? undefined : "无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！";
    default:
      return undefined;
  }
}
