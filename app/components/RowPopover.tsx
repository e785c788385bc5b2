import { useEffect, useState, type ReactNode } from "react";

/**
 * A <details> whose panel opens fixed to the viewport (`.row-popover`), so a table's sideways
 * scrolling box never clips it. It needs no JavaScript: the summary opens and closes it. With
 * JavaScript a 取消 button closes it too (rendered only after hydration: without JavaScript it
 * would be a button that does nothing).
 */
export function RowPopover(props: { summary: ReactNode; summaryClassName: string; testId?: string; panelTestId?: string; children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <details className="inline-block">
      <summary className={`cursor-pointer list-none text-sm hover:underline ${props.summaryClassName}`} data-testid={props.testId}>{props.summary}</summary>
      <div className="row-popover rounded border border-gray-200 bg-white p-3 text-sm shadow-lg dark:border-gray-700 dark:bg-gray-800" data-testid={props.panelTestId}>
        {props.children}
        {hydrated ? (
          <button type="button" className="btn-secondary ml-2 mt-2" onClick={(event) => event.currentTarget.closest("details")?.removeAttribute("open")}>取消</button>
        ) : null}
      </div>
    </details>
  );
}
