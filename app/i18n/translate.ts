import i18next from "i18next";
import { english } from "./en";
import type { Locale } from "./locale";

/**
 * Server-side translation. Keys are the Chinese source text itself (docs/decisions/045): the
 * code keeps writing the product's exact Chinese, Chinese needs no catalog, and English lives in
 * `app/i18n/en/`. Values go in as `{{name}}`.
 */
const i18n = i18next.createInstance();
void i18n.init({
  lng: "zh",
  fallbackLng: false,
  resources: { en: { translation: english } },
  keySeparator: false,
  nsSeparator: false,
  // Messages are text (JSON fields, flash notices, plain mail bodies); HTML mail escapes its own values.
  interpolation: { escapeValue: false },
  returnNull: false,
  returnEmptyString: false,
  initAsync: false,
});

type Values = Record<string, string | number>;

const CJK_TEXT = /[\u3400-\u9fff]/;

/** The message in the locale: the key rendered with its values (the key itself is the Chinese). */
export function t(locale: Locale, key: string, values: Values = {}): string {
  const rendered = { ...values };
  // A value that is itself a message (a reason, a nested refusal) is read in the same language.
  if (locale !== "zh")
    for (const [name, value] of Object.entries(values))
      if (typeof value === "string") rendered[name] = translateText(locale, value);
  return i18n.t(key, { lng: locale, ...rendered, defaultValue: key });
}

/** Messages and log lines are short; longer text is data, not worth matching every template against. */
const MAX_MESSAGE_LENGTH = 4000;

const FIELD_PREFIX = /^([\w.[\]-]+: )([\s\S]+)$/;

type Template = { key: string; names: string[]; pattern: RegExp };

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;
const HAS_PLACEHOLDER = /\{\{\s*\w+\s*\}\}/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Catalog keys with values, as patterns that read the values back out of a rendered Chinese
 * message. Only keys with Chinese words outside their placeholders: a key of punctuation and
 * values alone would match nearly anything. Longer fixed text first, so the most specific wins.
 */
const templates: Template[] = Object.keys(english)
  .filter((key) => HAS_PLACEHOLDER.test(key) && CJK_TEXT.test(key.replace(PLACEHOLDER, "")))
  .map((key) => {
    const names: string[] = [];
    const parts = key.split(PLACEHOLDER);
    const source = parts
      .map((part, index) => (index % 2 === 1 ? (names.push(part), "([\\s\\S]+?)") : escapeRegExp(part)))
      .join("");
    return { key, names, pattern: new RegExp(`^${source}$`) };
  })
  .sort((a, b) => b.key.replace(PLACEHOLDER, "").length - a.key.replace(PLACEHOLDER, "").length);

/**
 * A finished Chinese message (already rendered with its values: an /api refusal, a form error,
 * a stored log line) in the reader's language. Text the catalog does not know — user data, an
 * upstream's own words — comes back as it was.
 */
export function translateText(locale: Locale, text: string): string {
  if (locale === "zh" || text.length > MAX_MESSAGE_LENGTH || !CJK_TEXT.test(text)) return text;
  if (Object.hasOwn(english, text)) return i18n.t(text, { lng: locale, defaultValue: text });
  for (const template of templates) {
    const match = template.pattern.exec(text);
    if (!match) continue;
    const values: Values = {};
    template.names.forEach((name, index) => (values[name] = match[index + 1] ?? ""));
    return t(locale, template.key, values);
  }
  // A field path before a refusal ("name: 请输入名称", as the edge reports a schema issue).
  const fieldMessage = FIELD_PREFIX.exec(text);
  if (fieldMessage) return `${fieldMessage[1]}${translateText(locale, fieldMessage[2] ?? "")}`;
  return text;
}

/**
 * A page's own text (a label, a heading, a button) in the locale. Unlike `t`, values are put in
 * as they are: on a page they are data (a name, a count), never messages to be read again.
 */
export function pageText(locale: Locale, key: string, values: Values = {}): string {
  if (locale === "zh" && !HAS_PLACEHOLDER.test(key)) return key;
  return i18n.t(key, { lng: locale, ...values, defaultValue: key });
}
