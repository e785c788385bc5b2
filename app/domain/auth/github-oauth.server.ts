import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import { guardedHttp } from "~/utils/guarded-http.server";
import { ProviderError } from "./provider-error";

/**
 * GitHub's OAuth web flow: the browser goes to the authorize page with our
 * client id and a state; GitHub sends it back with a code, which we trade for a token at
 * `POST /login/oauth/access_token`, then read `GET /user`. Both hosts come from env so tests can
 * point them at a loopback mock (decision 018).
 */
export type GitHubIdentity = { id: string; login: string; name: string; email: string };

const UNREACHABLE = "无法连接至 GitHub 服务器，请稍后重试！";

/** Where the sign-in button sends the browser. No redirect_uri: GitHub uses the app's registered callback (…/oauth/github), as the reference does. */
export function githubAuthorizeUrl(state: string): string {
  const query = new URLSearchParams({ client_id: options.string("GitHubClientId"), state, scope: "read:user" });
  return `${env.GITHUB_OAUTH_BASE_URL}/login/oauth/authorize?${query}`;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function call(url: string, init: Parameters<typeof guardedHttp>[1]) {
  try {
    return await guardedHttp(url, init);
  } catch (error) {
    console.error("[oauth] GitHub call failed:", (error as Error).message);
    throw new ProviderError(UNREACHABLE);
  }
}

/** The GitHub account behind an authorization code; throws ProviderError with a user-facing message. */
export async function fetchGitHubIdentity(code: string): Promise<GitHubIdentity> {
  if (!code) throw new ProviderError("无效的参数");
  const timeoutMs = env.OAUTH_TIMEOUT * 1000;
  const exchange = await call(`${env.GITHUB_OAUTH_BASE_URL}/login/oauth/access_token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "User-Agent": "switchyard" },
    body: JSON.stringify({
      client_id: options.string("GitHubClientId"),
      client_secret: options.string("GitHubClientSecret"),
      code,
    }),
    timeoutMs,
  });
  const grant = parseJson(exchange.body);
  // GitHub reports a bad code or bad credentials with 200 and an `error` field.
  if (!grant || typeof grant.error === "string" || typeof grant.access_token !== "string" || !grant.access_token) {
    const reason =
      grant && typeof grant.error === "string"
        ? `${grant.error}${typeof grant.error_description === "string" ? `: ${grant.error_description}` : ""}`
        : `HTTP ${exchange.status}`;
    throw new ProviderError(`GitHub 授权失败（${reason}），请重新登录`);
  }
  const profile = await call(`${env.GITHUB_API_BASE_URL}/user`, {
    headers: {
      Authorization: `Bearer ${grant.access_token}`,
      Accept: "application/vnd.github+json",
      "User-Agent": "switchyard",
    },
    timeoutMs,
  });
  const user = profile.status === 200 ? parseJson(profile.body) : undefined;
  // The numeric id is the identity (a login can be renamed and then taken by someone else).
  const id = user && (typeof user.id === "number" || typeof user.id === "string") ? String(user.id) : "";
  if (!user || !/^\d{1,20}$/.test(id) || typeof user.login !== "string" || !user.login) {
    throw new ProviderError("返回值非法，用户字段为空，请稍后重试！");
  }
  return {
    id,
    login: user.login.slice(0, 100),
    name: typeof user.name === "string" ? user.name.slice(0, 20) : "",
    email: typeof user.email === "string" ? user.email.slice(0, 50) : "",
  };
}
