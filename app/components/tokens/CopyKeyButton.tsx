import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";

/**
 * With JavaScript the key goes straight to the clipboard (已复制到剪贴板！); without it the same
 * button posts "reveal" and the key appears in the row to copy by hand.
 */
export function CopyKeyButton({ id }: { id: number }) {
  const fetcher = useFetcher<{ revealed?: { key: string } }>();
  const [copied, setCopied] = useState(false);
  const key = fetcher.data?.revealed?.key;
  useEffect(() => {
    if (!key) return;
    navigator.clipboard?.writeText(key).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }, [key]);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value="reveal" className="text-sm text-blue-600 hover:underline dark:text-blue-400">
        {copied ? "已复制到剪贴板！" : "复制"}
      </button>
    </fetcher.Form>
  );
}
