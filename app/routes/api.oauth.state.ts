import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFail, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { oauthRateLimited, TOO_MANY_REQUESTS_MESSAGE } from "~/web/oauth.server";
import { issueOAuthState } from "~/web/oauth-state-cookie.server";

/**
 * `GET /api/oauth/state[?aff=]`: a fresh OAuth state for this browser (decision 018). A visitor also
 * gets the pre-login cookie the state is bound to; a signed-in caller's state is bound to its session.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (await oauthRateLimited(request)) return apiFail(TOO_MANY_REQUESTS_MESSAGE, 429);
    const aff = new URL(request.url).searchParams.get("aff") ?? "";
    const issued = await issueOAuthState(request, /^[A-Za-z0-9]{1,32}$/.test(aff) ? aff : "");
    const headers = issued.setCookie ? { "Set-Cookie": issued.setCookie } : undefined;
    return Response.json({ success: true, message: "", data: issued.state }, { headers });
  });
}
