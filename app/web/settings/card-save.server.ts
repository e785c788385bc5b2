import { data } from "@remix-run/node";
import {
  checkOptionPreconditions,
  getOptionDef,
  isOptionKey,
  validateOptionValue,
  type OptionDef,
  type OptionKey,
} from "~/domain/options/registry";
import { getOptionValue, saveOption } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { CONFIRM_OFF_KEYS, TRAILING_SLASH_KEYS, type CardField, type OptionCard } from "./option-cards.server";
import type { SettingsActionResult } from "./tabs";

/**
 * What a card's form answers when it does not redirect: besides the shared result, what was
 * submitted (so a rejected JSON stays in its box to be fixed; never secrets), a question to
 * confirm, or a notice that nothing changed.
 */
export type CardResult = SettingsActionResult & { values?: Record<string, string>; confirm?: string; info?: string };

/** The browser's share of the registry's rules for a field (the server checks them all again). */
export type FieldBounds = { min?: number; max?: number; step?: string; maxLength?: number };
export type FieldView = CardField & FieldBounds & { value: string; isSet: boolean };
export type CardView = { intent: string; title: string; fields: FieldView[] };

function currentValue(key: OptionKey): string {
  return getOptionValue(key) ?? getOptionDef(key)?.default ?? "";
}

/** JSON is shown indented so a long ratio table can be edited; it is stored compact. */
function displayValue(field: CardField, raw: string): string {
  if (field.kind !== "json") return raw;
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

const htmlNumber = (n: number | undefined) => (n === undefined || n >= Number.MAX_SAFE_INTEGER ? undefined : n);

/**
 * The field's HTML bounds from the option's registry entry: an integer steps by one from its
 * minimum (an exclusive bound is the next integer), a decimal takes any step, and no number is
 * negative (validateType); text has its length cap. A decimal's exclusive bound (QuotaPerUnit
 * above 0) has no HTML form: the server refuses 0 itself.
 */
function fieldBounds(def: OptionDef | undefined): FieldBounds {
  if (!def) return {};
  if (def.type === "int")
    return { min: def.min ?? (def.above !== undefined ? def.above + 1 : 0), max: htmlNumber(def.max), step: "1" };
  if (def.type === "float") return { min: def.min ?? def.above ?? 0, max: htmlNumber(def.max), step: "any" };
  // JSON is shown indented but measured compact, so its cap is left to the server.
  if (def.type === "string") return { maxLength: def.maxLength };
  return {};
}

/** A secret's registry flag wins over the card's kind: a `*Key` never reaches a page as text. */
function isSecret(field: CardField): boolean {
  return field.kind === "secret" || Boolean(getOptionDef(field.key)?.secret);
}

/** The card as the page shows it: values of ordinary fields, only "set or not" for secrets. */
export function cardView(card: OptionCard): CardView {
  return {
    intent: card.intent,
    title: card.title,
    fields: card.fields.map((field) => {
      const raw = currentValue(field.key);
      const bounds = fieldBounds(getOptionDef(field.key));
      return isSecret(field)
        ? { ...field, ...bounds, kind: "secret" as const, value: "", isSet: raw !== "" }
        : { ...field, ...bounds, value: displayValue(field, raw), isSet: raw !== "" };
    }),
  };
}

/** The card's own keys read from the form; a field the form lacks is left alone, an empty secret too. */
function readSubmitted(card: OptionCard, form: FormData): Map<string, string> {
  const submitted = new Map<string, string>();
  for (const field of card.fields) {
    if (field.kind === "bool") {
      // An unchecked box sends nothing: the card's key list says it was there and is now false.
      submitted.set(field.key, form.getAll(field.key).map(String).includes("true") ? "true" : "false");
      continue;
    }
    const raw = form.get(field.key);
    if (raw === null || typeof raw !== "string") continue;
    if (isSecret(field)) {
      if (raw.trim() !== "") submitted.set(field.key, raw.trim());
      continue;
    }
    let value = field.kind === "textarea" || field.kind === "json" ? raw : raw.trim();
    if (TRAILING_SLASH_KEYS.has(field.key)) value = value.replace(/\/+$/, "");
    submitted.set(field.key, value);
  }
  return submitted;
}

function echoed(card: OptionCard, submitted: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of card.fields) {
    const value = submitted.get(field.key);
    if (value !== undefined && !isSecret(field)) out[field.key] = value;
  }
  return out;
}

export type CardSaveOptions = {
  /** Where a successful save redirects (the tab's URL). */
  tabUrl: string;
  successMessage?: string;
  /** Prefix of a failure (the other tab's 公告更新失败 …); else the generic partial/full messages. */
  failureMessage?: string;
  /** The other tab re-saving the same text is not a mistake: it answers with its success message. */
  unchangedIsSuccess?: boolean;
};

type Checked = { changed: Map<string, string>; fieldErrors: Record<string, string[]> };

/** Validates every submitted key before any is written, so a refused card stores nothing. */
function checkSubmitted(card: OptionCard, submitted: Map<string, string>): Checked {
  const changed = new Map<string, string>();
  const fieldErrors: Record<string, string[]> = {};
  for (const field of card.fields) {
    const value = submitted.get(field.key);
    if (value === undefined) continue;
    if (field.kind === "json") {
      try {
        JSON.parse(value);
      } catch {
        fieldErrors[field.key] = [field.jsonMessage ?? messages.invalidJson];
        continue;
      }
    }
    const valid = validateOptionValue(field.key, value);
    if (!valid.ok) {
      fieldErrors[field.key] = [field.kind === "json" ? `${messages.checkInput}：${valid.message}` : valid.message];
      continue;
    }
    if (valid.value !== currentValue(field.key)) changed.set(field.key, valid.value);
  }
  // A login method switched on with its prerequisite in the same submit is fine: check against both.
  const pending = (key: string) => changed.get(key) ?? (isOptionKey(key) ? getOptionValue(key) : undefined) ?? "";
  for (const [key, value] of changed) {
    const refusal = checkOptionPreconditions(key, value, pending);
    if (refusal) fieldErrors[key] = [refusal];
  }
  return { changed, fieldErrors };
}

function firstError(fieldErrors: Record<string, string[]>): string {
  return Object.values(fieldErrors)[0]?.[0] ?? messages.saveFailed;
}

/**
 * Saves one card: only its own keys, all validated first, booleans after the values they may
 * depend on; answers with a redirect and flash, or the card's result. See decision 016.
 */
export async function saveCard(card: OptionCard, form: FormData, opts: CardSaveOptions) {
  const submitted = readSubmitted(card, form);
  const values = echoed(card, submitted);
  const intent = card.intent;
  for (const key of CONFIRM_OFF_KEYS) {
    if (submitted.get(key) === "false" && currentValue(key) === "true" && form.get("confirm") !== key) {
      return data<CardResult>(
        { intent, error: messages.passwordLoginOffConfirm, confirm: key, values },
        { status: 400 },
      );
    }
  }
  const { changed, fieldErrors } = checkSubmitted(card, submitted);
  // Payment callbacks are built on the server address (docs/product.md, Settings: 请先填写服务器地址).
  if (card.needsServerAddress && changed.size > 0 && !(getOptionValue("ServerAddress") ?? "")) {
    return data<CardResult>({ intent, error: messages.serverAddressFirst, values }, { status: 400 });
  }
  if (Object.keys(fieldErrors).length > 0) {
    // Each refusal shows under its field; the card repeats it only inside a headline of its own
    // (公告更新失败：…), else the same sentence would stand twice on the card.
    const message = opts.failureMessage ? `${opts.failureMessage}：${firstError(fieldErrors)}` : undefined;
    return data<CardResult>({ intent, error: message, fieldErrors, values }, { status: 400 });
  }
  if (changed.size === 0) {
    if (opts.unchangedIsSuccess)
      return redirectWithFlash(opts.tabUrl, { type: "success", message: opts.successMessage ?? messages.saved });
    return data<CardResult>({ intent, info: messages.nothingChanged });
  }
  const order = [...changed.keys()].sort(
    (a, b) => Number(getOptionDef(a)?.type === "bool") - Number(getOptionDef(b)?.type === "bool"),
  );
  const failed: Record<string, string[]> = {};
  for (const key of order) {
    try {
      const result = await saveOption(key, changed.get(key)!);
      if (!result.ok) failed[key] = [result.message];
    } catch (error) {
      console.error(`[settings] saving ${key} failed:`, (error as Error).message);
      failed[key] = [messages.saveFailed];
    }
  }
  const failures = Object.keys(failed).length;
  if (failures === 0)
    return redirectWithFlash(opts.tabUrl, { type: "success", message: opts.successMessage ?? messages.saved });
  const headline = opts.failureMessage ?? (failures < order.length ? messages.savePartlyFailed : messages.saveFailed);
  return data<CardResult>(
    { intent, error: `${headline}：${firstError(failed)}`, fieldErrors: failed, values },
    { status: 400 },
  );
}
