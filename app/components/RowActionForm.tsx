import { Form } from "@remix-run/react";
import { useT } from "~/components/i18n/locale-context";

const linkStyle = {
  blue: "text-blue-600 dark:text-blue-400",
  green: "text-green-700 dark:text-green-400",
  yellow: "text-yellow-700 dark:text-yellow-400",
} as const;

/** One row action as a tiny POST form (`id` + `intent`), so table actions work without JavaScript. */
export function RowActionForm({
  id,
  intent,
  label,
  tone = "blue",
}: {
  id: number;
  intent: string;
  label: string;
  tone?: keyof typeof linkStyle;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value={intent} className={`text-sm hover:underline ${linkStyle[tone]}`}>
        {label}
      </button>
    </Form>
  );
}

/** Enable/disable toggle for rows whose status 1 means enabled. */
export function StatusToggle({ id, enabled }: { id: number; enabled: boolean }) {
  const t = useT();
  return enabled ? (
    <RowActionForm id={id} intent="disable" label={t("禁用")} tone="yellow" />
  ) : (
    <RowActionForm id={id} intent="enable" label={t("启用")} tone="green" />
  );
}
