import type { User } from "../../db/schema";
import { fetchGitHubIdentity } from "~/domain/auth/github-oauth.server";
import { ProviderError } from "~/domain/auth/provider-error";
import { checkTelegramLogin } from "~/domain/auth/telegram-login";
import {
  bindIdentity,
  signInWithIdentity,
  type IdentityProfile,
  type Provider,
  type SignInResult,
} from "~/domain/auth/third-party-accounts.server";
import { fetchWeChatOpenId } from "~/domain/auth/wechat-login.server";
import { options } from "~/domain/options/store.server";
import { USER_STATUS_BANNED } from "~/domain/users/roles";
import { messages } from "~/messages";
import { allowCriticalRequest, TOO_MANY_REQUESTS_MESSAGE } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";
import { consumeOAuthState } from "./oauth-state-cookie.server";
import { createSession, getSessionUser } from "./session-cookie.server";

/**
 * Third-party sign-in wiring shared by the /api routes (JSON, the reference's shapes) and the
 * console routes (redirects): each outcome is a value, and the caller shapes it. A sign-in ends
 * with the same server-side session a password sign-in gets (createSession).
 */
export type OAuthOutcome =
  | { ok: true; mode: "login"; user: User; cookie: string }
  | { ok: true; mode: "bind"; user: User }
  | { ok: false; message: string; status?: number };

function refused(message: string, status?: number): OAuthOutcome {
  return { ok: false, message, status };
}

/** The reference puts every /api/oauth/* call under its critical limit (20 per 20 minutes per IP). */
export async function oauthRateLimited(request: Request): Promise<boolean> {
  return !(await allowCriticalRequest(clientIp(request)));
}

export { TOO_MANY_REQUESTS_MESSAGE };

async function withProvider<T>(run: () => Promise<T>): Promise<T | OAuthOutcome> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProviderError) return refused(error.message);
    throw error;
  }
}

async function finishSignIn(request: Request, result: SignInResult): Promise<OAuthOutcome> {
  if (!result.ok) return refused(result.message);
  return {
    ok: true,
    mode: "login",
    user: result.value.user,
    cookie: await createSession(request, result.value.user.id),
  };
}

async function finishBind(user: User, provider: Provider, externalId: string): Promise<OAuthOutcome> {
  const bound = await bindIdentity(user, provider, externalId);
  return bound.ok ? { ok: true, mode: "bind", user } : refused(bound.message);
}

function isOutcome(value: unknown): value is OAuthOutcome {
  return typeof value === "object" && value !== null && "ok" in value;
}

/**
 * GitHub's callback: the state must be this browser's (decision 018). Signed in, it binds GitHub
 * to the account; otherwise it signs in (or signs up when registration is on).
 */
export async function githubCallback(request: Request, query: URLSearchParams): Promise<OAuthOutcome> {
  const consumed = await consumeOAuthState(request, query.get("state") ?? "");
  if (!consumed.ok) return refused(messages.oauthStateInvalid, 403);
  if (!options.bool("GitHubOAuthEnabled")) return refused(messages.githubDisabled);
  // The user declined on GitHub's page (error=access_denied), or GitHub refused the app.
  const declined = query.get("error");
  if (declined) return refused(`GitHub 授权失败（${declined.slice(0, 100)}），请重新登录`);
  const code = query.get("code") ?? "";
  const identity = await withProvider(() => fetchGitHubIdentity(code));
  if (isOutcome(identity)) return identity;
  if (consumed.signedIn) {
    const user = await getSessionUser(request);
    if (!user || user.status === USER_STATUS_BANNED) return refused(messages.banned);
    return finishBind(user, "github", identity.id);
  }
  const profile: IdentityProfile = { displayName: identity.name || identity.login.slice(0, 20), email: identity.email };
  return finishSignIn(request, await signInWithIdentity("github", identity.id, profile, consumed.affCode));
}

export async function wechatSignIn(request: Request, code: string): Promise<OAuthOutcome> {
  if (!options.bool("WeChatAuthEnabled")) return refused(messages.wechatDisabled);
  const openId = await withProvider(() => fetchWeChatOpenId(code));
  if (isOutcome(openId)) return openId;
  return finishSignIn(request, await signInWithIdentity("wechat", openId));
}

export async function wechatBind(user: User, code: string): Promise<OAuthOutcome> {
  if (!options.bool("WeChatAuthEnabled")) return refused(messages.wechatDisabled);
  const openId = await withProvider(() => fetchWeChatOpenId(code));
  if (isOutcome(openId)) return openId;
  return finishBind(user, "wechat", openId);
}

function checkTelegram(params: URLSearchParams) {
  if (!options.bool("TelegramOAuthEnabled")) return refused(messages.telegramDisabled);
  const check = checkTelegramLogin(params, options.string("TelegramBotToken"));
  return check.ok ? check.value : refused(check.message);
}

export async function telegramSignIn(request: Request, params: URLSearchParams): Promise<OAuthOutcome> {
  const identity = checkTelegram(params);
  if (isOutcome(identity)) return identity;
  return finishSignIn(
    request,
    await signInWithIdentity("telegram", identity.id, { displayName: identity.displayName }),
  );
}

export async function telegramBind(user: User, params: URLSearchParams): Promise<OAuthOutcome> {
  const identity = checkTelegram(params);
  if (isOutcome(identity)) return identity;
  return finishBind(user, "telegram", identity.id);
}

export type ThirdPartyMethods = {
  github: boolean;
  /** The official account's QR code image, when WeChat sign-in is on. */
  wechat: { qrCode: string } | null;
  telegram: { botName: string } | null;
};

/** The login page's third-party methods: only those the operator switched on. */
export function thirdPartyMethods(): ThirdPartyMethods {
  return {
    github: options.bool("GitHubOAuthEnabled"),
    wechat: options.bool("WeChatAuthEnabled") ? { qrCode: options.link("WeChatAccountQRCodeImageURL") } : null,
    telegram:
      options.bool("TelegramOAuthEnabled") && options.string("TelegramBotName")
        ? { botName: options.string("TelegramBotName") }
        : null,
  };
}

/** Where a console sign-in goes: the login page's cookie check, which then shows 登录成功！ on /token. */
export function signedInLocation(target = "/token"): string {
  return `/login?${new URLSearchParams({ signedIn: "1", redirectTo: target })}`;
}
