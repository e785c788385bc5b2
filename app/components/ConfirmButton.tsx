import { Form } from "@remix-run/react";
import { RowPopover } from "~/components/RowPopover";
import { useT } from "~/components/i18n/locale-context";

/**
 * A destructive action behind a confirmation that needs no JavaScript: the first click opens a
 * <details>, the second (inside it) submits. The panel is fixed to the viewport, so a table's
 * overflow box does not clip its 确定 button.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  intent: string;
  fields?: Record<string, string | number>;
  confirmLabel?: string;
  testId?: string;
}) {
  const t = useT();
  return (
    <RowPopover
      summary={props.label}
      summaryClassName="text-red-600 dark:text-red-400"
      testId={props.testId}
      panelTestId={props.testId ? `confirm-${props.testId}` : undefined}
    >
      <p className="mb-2">{props.question}</p>
      <Form method="post" className="inline-block">
        <input type="hidden" name="intent" value={props.intent} />
        {Object.entries(props.fields ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="btn-danger">
          {props.confirmLabel ?? t("确定")}
        </button>
      </Form>
    </RowPopover>
  );
}
