import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { oauthRateLimited, TOO_MANY_REQUESTS_MESSAGE, telegramBind } from "~/web/oauth.server";

/** `GET /api/oauth/telegram/bind` (User) with the login widget's fields: binds that Telegram account. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (await oauthRateLimited(request)) return apiFail(TOO_MANY_REQUESTS_MESSAGE, 429);
    const user = await requireApiUser(request, ROLE_USER);
    const outcome = await telegramBind(user, new URL(request.url).searchParams);
    return outcome.ok ? apiOk(undefined, "") : apiFail(outcome.message, outcome.status);
  });
}
