import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { oauthRateLimited, TOO_MANY_REQUESTS_MESSAGE, wechatBind } from "~/web/oauth.server";

/** `GET /api/oauth/wechat/bind?code=` (User): binds the WeChat account the code belongs to. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (await oauthRateLimited(request)) return apiFail(TOO_MANY_REQUESTS_MESSAGE, 429);
    const user = await requireApiUser(request, ROLE_USER);
    const outcome = await wechatBind(user, new URL(request.url).searchParams.get("code") ?? "");
    return outcome.ok ? apiOk(undefined, "") : apiFail(outcome.message, outcome.status);
  });
}
