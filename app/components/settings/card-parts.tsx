import { useActionData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import type { loadPersonalTab } from "~/web/settings/personal.server";
import type { SettingsActionResult } from "~/web/settings/tabs";

/** What the 个人设置 tab's loader gives its cards. */
export type PersonalTab = Awaited<ReturnType<typeof loadPersonalTab>>;

/** The result of the last submit, when it was this card's intent. */
export function useCardResult(intent: string): SettingsActionResult | undefined {
  const result = useActionData<SettingsActionResult>();
  return result?.intent === intent ? result : undefined;
}

export function CardError({ result }: { result: SettingsActionResult | undefined }) {
  return result?.error ? <FlashBanner type="error" message={result.error} /> : null;
}
