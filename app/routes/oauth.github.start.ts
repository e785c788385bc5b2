import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { githubAuthorizeUrl } from "~/domain/auth/github-oauth.server";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { oauthRateLimited } from "~/web/oauth.server";
import { issueOAuthState } from "~/web/oauth-state-cookie.server";

/**
 * The GitHub button's target (a plain link, so it works without JavaScript): a state for this
 * browser, then GitHub's authorize page. Signed in, the round trip binds GitHub to the account
 * (the settings page links here too); otherwise it signs in.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await whenBooted();
  if (!options.bool("GitHubOAuthEnabled"))
    return redirectWithFlash("/login", { type: "error", message: messages.githubDisabled });
  if (await oauthRateLimited(request))
    return redirectWithFlash("/login", { type: "error", message: messages.tooManyRequests });
  const aff = new URL(request.url).searchParams.get("aff") ?? "";
  const issued = await issueOAuthState(request, /^[A-Za-z0-9]{1,32}$/.test(aff) ? aff : "");
  return redirect(
    githubAuthorizeUrl(issued.state),
    issued.setCookie ? { headers: { "Set-Cookie": issued.setCookie } } : undefined,
  );
}
