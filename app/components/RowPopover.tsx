import type { ReactNode } from "react";
import { useT } from "~/components/i18n/locale-context";

/**
 * A <details> whose panel opens fixed to the viewport (`.row-popover`), so a table's sideways
 * scrolling box never clips it, anchored just under its own summary (CSS anchor positioning). It needs no script: the summary opens and closes it. With the
 * enhancement script a 取消 button closes it too, as do a click outside and Escape; without the
 * script the button stays hidden (it would do nothing).
 */
export function RowPopover(props: {
  summary: ReactNode;
  summaryClassName: string;
  testId?: string;
  panelTestId?: string;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <details className="row-popover-anchor inline-block" data-dismiss="">
      <summary
        className={`cursor-pointer list-none text-sm hover:underline ${props.summaryClassName}`}
        data-testid={props.testId}
      >
        {props.summary}
      </summary>
      <div
        className="row-popover rounded border border-gray-200 bg-white p-3 text-sm shadow-lg dark:border-gray-700 dark:bg-gray-800"
        data-testid={props.panelTestId}
      >
        {props.children}
        <button type="button" className="btn-secondary ml-2 mt-2" data-close-details="" data-js-only="" hidden>
          {t("取消")}
        </button>
      </div>
    </details>
  );
}
