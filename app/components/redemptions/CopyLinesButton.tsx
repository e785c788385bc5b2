import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";

/**
 * Posts `intent` for one row. With JavaScript the answer's `copied` lines go straight to the
 * clipboard (已复制到剪贴板！); without it the page re-renders with them in a box to copy by hand.
 */
export function CopyLinesButton({ id, intent, label }: { id: number; intent: string; label: string }) {
  const fetcher = useFetcher<{ copied?: string[] }>();
  const [copied, setCopied] = useState(false);
  const lines = fetcher.data?.copied;
  useEffect(() => {
    if (!lines?.length) return;
    navigator.clipboard?.writeText(lines.join("\n")).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }, [lines]);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value={intent} className="text-sm text-blue-600 hover:underline dark:text-blue-400">
        {copied ? "已复制到剪贴板！" : label}
      </button>
    </fetcher.Form>
  );
}

/** Copies the text of a box already on the page (the created keys); needs JavaScript, the box itself does not. */
export function CopyBoxButton({ targetId, label }: { targetId: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  // Without JavaScript the button could do nothing: it is not shown until the page is live.
  if (!ready) return null;
  return (
    <button
      type="button"
      className="btn-secondary"
      onClick={() => {
        const box = document.getElementById(targetId) as HTMLTextAreaElement | null;
        if (!box) return;
        navigator.clipboard?.writeText(box.value).then(
          () => setCopied(true),
          () => {
            box.select();
            setCopied(false);
          },
        );
      }}
    >
      {copied ? "已复制到剪贴板！" : label}
    </button>
  );
}
