import { z } from "zod";
import { MAX_ID } from "~/utils/edge-input";

/**
 * The playground's one form, as the browser posts it without JavaScript (the page's script posts
 * the same fields to /pg/chat/completions as JSON instead). Pure: the page renders from these
 * types and the action parses with this schema.
 */

export type ChatMessage = { role: "user" | "assistant"; content: string };

/** Turns kept in the page: a long conversation drops its oldest (the form carries them all back). */
export const HISTORY_LIMIT = 50;
export const DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant.";

export const chatFormMessages = {
  emptyMessage: "请输入消息",
  temperature: "温度必须是 0 到 2 之间的数",
  maxTokens: "最大 Tokens 必须是 0 或正整数",
  history: "对话记录无效，请清除上下文后重试",
} as const;

const historySchema = z.array(
  z
    .object({ role: z.enum(["user", "assistant"]), content: z.string() })
    .transform(({ role, content }) => ({ role, content })),
);

/** The hidden field's JSON; anything else is a page that was tampered with or truncated. */
export function readHistory(raw: string): ChatMessage[] | undefined {
  if (!raw.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const history = historySchema.safeParse(parsed);
  return history.success ? history.data.slice(-HISTORY_LIMIT) : undefined;
}

const text = z.string().default("");

export const chatFormSchema = z.object({
  intent: z.enum(["send", "clear"]).catch("send"),
  group: text,
  model: text,
  message: text.transform((value) => value.trim()),
  system: text.transform((value) => value.trim()),
  // Empty or 0 leaves the choice to the upstream, as the page's script does.
  temperature: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce
      .number({ error: chatFormMessages.temperature })
      .min(0, chatFormMessages.temperature)
      .max(2, chatFormMessages.temperature)
      .default(0),
  ),
  max_tokens: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce
      .number({ error: chatFormMessages.maxTokens })
      .int(chatFormMessages.maxTokens)
      .min(0, chatFormMessages.maxTokens)
      .max(MAX_ID, chatFormMessages.maxTokens)
      .default(0),
  ),
  history: text,
});

/** The side panel's fields as posted, so the page that answers shows the same choices. */
export type ChatSettings = { group: string; model: string; temperature: string; max_tokens: string; system: string };

export function postedSettings(form: FormData): ChatSettings {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    group: field("group"),
    model: field("model"),
    temperature: field("temperature"),
    max_tokens: field("max_tokens"),
    system: field("system"),
  };
}

/** Everything the form posted, as the schema reads it (files and repeated fields are not expected). */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  return fields;
}
