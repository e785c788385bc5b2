import type { LoaderFunctionArgs } from "@remix-run/node";
import { loginReplyUser } from "~/domain/auth/third-party-accounts.server";
import { apiFail, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { oauthRateLimited, TOO_MANY_REQUESTS_MESSAGE, wechatSignIn } from "~/web/oauth.server";

/** `GET /api/oauth/wechat?code=`: signs in with a code from the WeChat official account (or signs up when registration is on). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (await oauthRateLimited(request)) return apiFail(TOO_MANY_REQUESTS_MESSAGE, 429);
    const outcome = await wechatSignIn(request, new URL(request.url).searchParams.get("code") ?? "");
    if (!outcome.ok) return apiFail(outcome.message, outcome.status);
    if (outcome.mode !== "login") return apiFail(outcome.mode);
    return Response.json(
      { success: true, message: "", data: loginReplyUser(outcome.user) },
      { headers: { "Set-Cookie": outcome.cookie } },
    );
  });
}
