import type { ReactNode } from "react";
import { Form, useActionData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useT } from "~/components/i18n/locale-context";
import type { CardResult, CardView, FieldView } from "~/web/settings/card-save.server";

/** The result of the last submit, when it was this card's intent. */
export function useOptionCardResult(intent: string): CardResult | undefined {
  const result = useActionData<CardResult>();
  return result?.intent === intent ? result : undefined;
}

function FieldInput({
  intent,
  field,
  shown,
  error,
}: {
  intent: string;
  field: FieldView;
  shown: string;
  error?: string;
}) {
  const t = useT();
  const id = `${intent}-${field.key}`;
  const invalid = error ? true : undefined;
  // The refusal under the box is its description, so a screen reader reads it with the box.
  const describedBy = error ? `${id}-error` : undefined;
  // Keyed by the value so a save that reloads the page's data also refreshes what the box shows.
  const key = `${field.key}:${shown}`;
  switch (field.kind) {
    case "bool":
      return (
        <label className="flex items-center gap-2 text-sm" htmlFor={id}>
          <input key={key} id={id} type="checkbox" name={field.key} value="true" defaultChecked={shown === "true"} />
          {t(field.label)}
        </label>
      );
    case "textarea":
    case "json":
      return (
        <textarea
          key={key}
          id={id}
          name={field.key}
          className={`input min-h-24 ${field.kind === "json" ? "font-mono text-xs" : ""}`}
          rows={field.kind === "json" ? 8 : 5}
          maxLength={field.maxLength}
          defaultValue={shown}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      );
    case "select":
      return (
        <select key={key} id={id} name={field.key} className="input" defaultValue={shown}>
          {(field.choices ?? []).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {t(choice.label)}
            </option>
          ))}
        </select>
      );
    case "secret":
      return (
        <input
          id={id}
          name={field.key}
          type="password"
          className="input"
          autoComplete="new-password"
          maxLength={field.maxLength}
          placeholder={field.isSet ? t("已设置，留空则不修改") : t("未设置")}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      );
    case "number":
      return (
        <input
          key={key}
          id={id}
          name={field.key}
          type="number"
          className="input"
          min={field.min}
          max={field.max}
          step={field.step}
          required
          defaultValue={shown}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      );
    case "url":
      return (
        <input
          key={key}
          id={id}
          name={field.key}
          type="url"
          className="input"
          maxLength={field.maxLength}
          defaultValue={shown}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      );
    default:
      return (
        <input
          key={key}
          id={id}
          name={field.key}
          type="text"
          className="input"
          maxLength={field.maxLength}
          defaultValue={shown}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      );
  }
}

/**
 * One settings card: its own form posting `intent=<card>` with only its fields. Works without
 * JavaScript; the server decides which keys the card may write (decision 016).
 */
export function OptionCardForm({ card, children }: { card: CardView; children?: ReactNode }) {
  const t = useT();
  const result = useOptionCardResult(card.intent);
  const errors = result?.fieldErrors ?? {};
  const submittedBefore = result?.values;
  return (
    <section className="card" aria-labelledby={`card-${card.intent}`} data-testid={`card-${card.intent}`}>
      <h2 id={`card-${card.intent}`} className="mb-3 font-semibold">
        {t(card.title)}
      </h2>
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      {result?.info ? <FlashBanner type="info" message={result.info} /> : null}
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={card.intent} />
        {card.fields.map((field) => {
          const shown = submittedBefore?.[field.key] ?? field.value;
          const error = errors[field.key]?.[0];
          return (
            <div key={field.key}>
              {field.kind === "bool" ? null : (
                <label className="label" htmlFor={`${card.intent}-${field.key}`}>
                  {t(field.label)}
                  {field.kind === "secret" ? (
                    <span className="ml-2 text-xs text-gray-500">{field.isSet ? t("已设置") : t("未设置")}</span>
                  ) : null}
                </label>
              )}
              <FieldInput intent={card.intent} field={field} shown={shown} error={error} />
              {field.help ? <p className="mt-1 text-xs text-gray-500">{t(field.help)}</p> : null}
              {error ? (
                <p id={`${card.intent}-${field.key}-error`} className="field-error">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
        {result?.confirm ? (
          <label className="flex items-center gap-2 text-sm text-red-700 dark:text-red-300">
            <input type="checkbox" name="confirm" value={result.confirm} required />
            {t("我已了解，确认关闭")}
          </label>
        ) : null}
        {/* 保存 and the card's title, joined as each language joins words. A key "保存{{title}}" would
            also read back every finished message that starts with 保存 (the edge matches templates). */}
        <button type="submit" className="btn-primary self-start">
          {t("{{verb}}{{title}}", { verb: t("保存"), title: t(card.title) })}
        </button>
      </Form>
      {children}
    </section>
  );
}
