import { useT } from "~/components/i18n/locale-context";

/** A value to copy: a read-only field (selectable without script) and, with the enhancement script, a copy button. */
export function CopyField({ id, label, value, testId }: { id: string; label: string; value: string; testId?: string }) {
  const t = useT();
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="flex gap-2">
        <input id={id} data-testid={testId} className="input flex-1 select-all font-mono" readOnly value={value} />
        <button
          type="button"
          className="btn-secondary shrink-0"
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
