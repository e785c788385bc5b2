import { Link } from "@remix-run/react";
import { messages } from "~/messages";
import { useT } from "~/components/i18n/locale-context";

/** Rendered open by the server; the method="dialog" form closes it without JavaScript. */
export function DefaultPasswordDialog() {
  const t = useT();
  return (
    <dialog
      open
      className="fixed inset-0 z-50 m-auto max-w-sm rounded-lg border border-yellow-400 bg-white p-5 shadow-xl dark:bg-gray-800 dark:text-gray-100"
      data-testid="default-password-dialog"
    >
      <p className="font-semibold text-yellow-700 dark:text-yellow-300">{t(messages.defaultPassword)}</p>
      <form method="dialog" className="mt-4 flex justify-end gap-2">
        <Link to="/setting" className="btn-primary">
          {t("立刻修改")}
        </Link>
        <button type="submit" className="btn-secondary">
          {t("稍后")}
        </button>
      </form>
    </dialog>
  );
}
