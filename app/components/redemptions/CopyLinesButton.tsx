import { Form } from "@remix-run/react";

/**
 * Posts `intent` for one row. Without script the page re-renders with the answer's lines in the
 * `#copied-codes` box to copy by hand; with the enhancement script the post goes in the
 * background and those lines go straight to the clipboard (已复制到剪贴板！).
 */
export function CopyLinesButton({ id, intent, label }: { id: number; intent: string; label: string }) {
  return (
    <Form method="post" data-copy-reply="#copied-codes">
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        className="text-sm text-blue-600 hover:underline dark:text-blue-400"
      >
        {label}
      </button>
    </Form>
  );
}

/** Copies the text of a box already on the page (the created keys); the box itself needs no script, the button does. */
export function CopyBoxButton({ targetId, label }: { targetId: string; label: string }) {
  return (
    <button type="button" className="btn-secondary" data-copy-from={`#${targetId}`} data-js-only="" hidden>
      {label}
    </button>
  );
}
