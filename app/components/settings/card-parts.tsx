import { useActionData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useT } from "~/components/i18n/locale-context";
import type { loadPersonalTab } from "~/web/settings/personal.server";
import type { SettingsActionResult } from "~/web/settings/tabs";

/** What the 个人设置 tab's loader gives its cards. */
export type PersonalTab = Awaited<ReturnType<typeof loadPersonalTab>>;

/** The result of the last submit, when it was this card's intent. */
export function useCardResult(intent: string): SettingsActionResult | undefined {
  const result = useActionData<SettingsActionResult>();
  return result?.intent === intent ? result : undefined;
}

export function CardError({ result }: { result: SettingsActionResult | undefined }) {
  return result?.error ? <FlashBanner type="error" message={result.error} /> : null;
}

/** A value to copy: a read-only field (selectable without script) and, with the enhancement script, a copy button. */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const t = useT();
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="flex gap-2">
        <input id={id} className="input flex-1 select-all font-mono" readOnly value={value} />
        <button
          type="button"
          className="btn-secondary"
          data-copy-from={`#${id}`}
          data-copied-text={t("已复制")}
          data-js-only=""
          hidden
        >
          {t("复制")}
        </button>
      </div>
    </div>
  );
}
