import type { LoaderFunctionArgs } from "@remix-run/node";
import { loginReplyUser } from "~/domain/auth/third-party-accounts.server";
import { apiFail, apiOk, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { githubCallback, oauthRateLimited, TOO_MANY_REQUESTS_MESSAGE } from "~/web/oauth.server";

/**
 * `GET /api/oauth/github?code=&state=`: signs in (data: the reference's six-field User, plus the
 * session cookie) or, for a signed-in caller, binds (message `bind`). A state that is not this
 * browser's is a 403, as in the reference.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (await oauthRateLimited(request)) return apiFail(TOO_MANY_REQUESTS_MESSAGE, 429);
    const query = new URL(request.url).searchParams;
    const outcome = await githubCallback(request, query);
    if (!outcome.ok) return apiFail(outcome.message, outcome.status);
    if (outcome.mode === "bind") return apiOk(undefined, "bind");
    return Response.json(
      { success: true, message: "", data: loginReplyUser(outcome.user) },
      { headers: { "Set-Cookie": outcome.cookie } },
    );
  });
}
