import { Form } from "@remix-run/react";

/**
 * A destructive action behind a confirmation that needs no JavaScript: the first click opens a
 * <details>, the second (inside it) submits.
 */
export function ConfirmButton(props: { label: string; question: string; intent: string; fields?: Record<string, string | number>; confirmLabel?: string; testId?: string }) {
  return (
    <details className="relative inline-block">
      <summary className="cursor-pointer list-none text-sm text-red-600 hover:underline dark:text-red-400" data-testid={props.testId}>{props.label}</summary>
      <div className="absolute right-0 z-20 mt-1 w-56 rounded border border-gray-200 bg-white p-2 text-sm shadow dark:border-gray-700 dark:bg-gray-800">
        <p className="mb-2">{props.question}</p>
        <Form method="post">
          <input type="hidden" name="intent" value={props.intent} />
          {Object.entries(props.fields ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="btn-danger">{props.confirmLabel ?? "确定"}</button>
        </Form>
      </div>
    </details>
  );
}
