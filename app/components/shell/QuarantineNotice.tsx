import { messages } from "~/messages";

/** Admins only: settlements billing could not write sit in the quarantine (journal-quarantine). */
export function QuarantineNotice({ lines, dir }: { lines: number; dir: string }) {
  const text = messages.billingQuarantined.replace("{n}", String(lines)).replace("{dir}", dir);
  return (
    <div
      role="alert"
      data-testid="billing-quarantine"
      className="mb-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      {text}
    </div>
  );
}
