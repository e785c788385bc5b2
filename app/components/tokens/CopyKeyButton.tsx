import { Form } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";

/**
 * 复制: without script the button posts "reveal" and the page shows the key in the row to copy
 * by hand; with the enhancement script the same post goes in the background and the key the
 * answer shows (`#token-key-<id>`) goes to the clipboard (已复制到剪贴板！).
 */
export function CopyKeyButton({ id }: { id: number }) {
  const t = useT();
  return (
    <Form method="post" data-copy-reply={`#${tokenKeyId(id)}`}>
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        name="intent"
        value="reveal"
        className="text-sm text-blue-600 hover:underline dark:text-blue-400"
      >
        {t("复制")}
      </button>
    </Form>
  );
}

/** The id of the element showing a token's key in its row. */
export function tokenKeyId(id: number): string {
  return `token-key-${id}`;
}
