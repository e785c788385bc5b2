import { data } from "@remix-run/node";
import type { User } from "../../../db/schema";
import { listModelsForGroup } from "~/domain/groups/models.server";
import { effectiveServerAddress, options } from "~/domain/options/store.server";
import { affCodeOf, affTransferMinimum, transferAffQuota } from "~/domain/users/affiliate.server";
import { changePasswordSchema } from "~/domain/users/forms";
import { ROLE_ROOT, roleLabel } from "~/domain/users/roles";
import { deleteSelf, updateSelf } from "~/domain/users/self-service.server";
import { regenerateAccessToken } from "~/domain/users/users.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { currentSessionId, destroySession } from "~/web/session-cookie.server";
import { formConstraint } from "~/web/form-constraint.server";
import { EMAIL_CARD_INTENTS, loadEmailBinding, personalEmailAction } from "./personal-email.server";
import type { SettingsActionResult } from "./tabs";
import { loadOAuthBindings, oauthBindAction } from "./personal-oauth.server";

/**
 * The personal tab (docs/product.md, Settings): account, models, invite, bindings,
 * system access token, password and account deletion. Every card posts `intent=<card>` here.
 */

/** The personal tab's data: only what the signed-in user may see of their own account. */
export async function loadPersonalTab(user: User, _request: Request) {
  const [models, affCode] = await Promise.all([listModelsForGroup(user.group), affCodeOf(user)]);
  const quotaPerUnit = options.float("QuotaPerUnit");
  return {
    username: user.username,
    displayName: user.display_name,
    role: roleLabel(user.role),
    group: user.group,
    isRoot: user.role === ROLE_ROOT,
    models,
    invite: {
      link: `${effectiveServerAddress().replace(/\/+$/, "")}/register?aff=${encodeURIComponent(affCode)}`,
      count: user.aff_count,
      quota: Number(user.aff_quota),
      history: Number(user.aff_history),
      minTransfer: affTransferMinimum().quota,
    },
    display: { inCurrency: options.bool("DisplayInCurrencyEnabled"), quotaPerUnit },
    // What the binding cards (email, GitHub, WeChat, Telegram) show as bound; empty means not bound.
    bindings: { email: user.email, githubId: user.github_id, wechatId: user.wechat_id, telegramId: user.telegram_id },
    ...loadOAuthBindings(user),
    emailBinding: loadEmailBinding(user),
    // The password card's HTML constraints, from the schema its action parses.
    passwordConstraint: formConstraint(changePasswordSchema),
  };
}

function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) (out[String(issue.path[0] ?? "")] ??= []).push(issue.message);
  return out;
}

const text = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** A card's refusal, shown on that card only. */
const refused = (intent: string, error: string, fields?: Record<string, string[]>) =>
  data<SettingsActionResult>({ intent, error: fields ? undefined : error, fieldErrors: fields }, { status: 400 });

export async function personalTabAction(user: User, intent: string, form: FormData, request: Request) {
  // 账户绑定: the email card's intents go to its own module, GitHub/WeChat/Telegram's below.
  if ((EMAIL_CARD_INTENTS as readonly string[]).includes(intent))
    return personalEmailAction(user, intent, form, request);
  switch (intent) {
    case "profile": {
      const displayName = text(form, "display_name").trim();
      if (displayName.length > 20) return refused(intent, "", { display_name: ["显示名称长度不得超过 20 位"] });
      await updateSelf(user, { display_name: displayName });
      return redirectWithFlash("/setting", { type: "success", message: messages.userUpdated });
    }
    case "password": {
      const parsed = changePasswordSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success)
        return data<SettingsActionResult>({ intent, fieldErrors: fieldErrors(parsed.error.issues) }, { status: 400 });
      const result = await updateSelf(user, parsed.data, await currentSessionId(request));
      if (!result.ok)
        return data<SettingsActionResult>(
          { intent, fieldErrors: { original_password: [result.message] } },
          { status: 400 },
        );
      return redirectWithFlash("/setting", { type: "success", message: messages.passwordChanged });
    }
    case "bind-wechat":
    case "bind-telegram":
      return oauthBindAction(user, intent, form, request);
    case "aff-transfer": {
      const raw = text(form, "quota").trim();
      // Only plain digits are an amount; anything else is below the minimum, as the reference's console says.
      const quota = /^\d{1,16}$/.test(raw) ? Number(raw) : 0;
      const result = await transferAffQuota(user, quota);
      if (!result.ok) return refused(intent, result.message, { quota: [result.message] });
      return redirectWithFlash("/setting", { type: "success", message: messages.affTransferDone });
    }
    case "access-token": {
      // Only its hash is kept: this answer is the one time the token is shown.
      const token = await regenerateAccessToken(user.id);
      return data<SettingsActionResult>(
        { intent, shownOnce: token, success: messages.accessTokenGenerated },
        { headers: { "Cache-Control": "no-store" } },
      );
    }
    case "delete-account": {
      if (text(form, "confirm_username") !== user.username)
        return refused(intent, "", { confirm_username: [messages.deleteConfirmPrompt] });
      const result = await deleteSelf(user);
      if (!result.ok) return refused(intent, result.message);
      return redirectWithFlash("/login", { type: "success", message: messages.accountDeleted }, [
        await destroySession(request),
      ]);
    }
    default:
      return data<SettingsActionResult>({ intent, error: "未知的操作" }, { status: 400 });
  }
}
