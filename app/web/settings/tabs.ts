/**
 * The tabs of /setting (docs/product.md, Settings): personal for everyone, the other three
 * for root only. Each tab owns a loader part and an action part in its own module
 * (`./<tab>.server.ts`) so the route stays a dispatcher.
 */
export const SETTING_TABS = ["personal", "operation", "system", "other"] as const;
export type SettingTab = (typeof SETTING_TABS)[number];

export const TAB_LABELS: Record<SettingTab, string> = {
  personal: "个人设置",
  operation: "运营设置",
  system: "系统设置",
  other: "其他设置",
};

/** An unknown or missing ?tab= is the personal tab, as in the reference. */
export function readSettingTab(value: string | null): SettingTab {
  return (SETTING_TABS as readonly string[]).includes(value ?? "") ? (value as SettingTab) : "personal";
}

/**
 * What a settings form answers when it does not redirect: the intent it was for (so only that
 * card shows the result), a form-level error, field errors, and a value shown exactly once
 * (a new access token, a generated password).
 */
export type SettingsActionResult = {
  intent: string;
  error?: string;
  fieldErrors?: Record<string, string[]>;
  shownOnce?: string;
  success?: string;
};
