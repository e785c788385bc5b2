import { data } from "@remix-run/node";
import type { User } from "../../../db/schema";
import { changePasswordSchema } from "~/domain/users/forms";
import { roleLabel } from "~/domain/users/roles";
import { updateSelf } from "~/domain/users/self-service.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { EMAIL_CARD_INTENTS, loadEmailBinding, personalEmailAction } from "./personal-email.server";
import type { SettingsActionResult } from "./tabs";
import { loadOAuthBindings, oauthBindAction } from "./personal-oauth.server";

/** The personal tab's data: only what the signed-in user may see of their own account. */
export async function loadPersonalTab(user: User, _request: Request) {
  return { username: user.username, displayName: user.display_name, role: roleLabel(user.role), group: user.group, ...loadOAuthBindings(user), emailBinding: loadEmailBinding(user) };
}

function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) (out[String(issue.path[0] ?? "")] ??= []).push(issue.message);
  return out;
}

export async function personalTabAction(user: User, intent: string, form: FormData, request: Request) {
  if ((EMAIL_CARD_INTENTS as readonly string[]).includes(intent)) return personalEmailAction(user, intent, form, request);
  switch (intent) {
    case "password": {
      const parsed = changePasswordSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return data<SettingsActionResult>({ intent, fieldErrors: fieldErrors(parsed.error.issues) }, { status: 400 });
      const result = await updateSelf(user, parsed.data, request);
      if (!result.ok) return data<SettingsActionResult>({ intent, fieldErrors: { original_password: [result.message] } }, { status: 400 });
      return redirectWithFlash("/setting", { type: "success", message: messages.passwordChanged });
    }
    case "bind-wechat": case "bind-telegram": return oauthBindAction(user, intent, form, request);
    default:
      return data<SettingsActionResult>({ intent, error: "未知的操作" }, { status: 400 });
  }
}
