import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { checkPasswordSignIn, SignInError } from "~/domain/auth/authenticator.server";
import { turnstileRefusal } from "~/domain/auth/turnstile.server";
import { apiFail, apiRoute, readJson } from "~/web/api.server";
import { createSession } from "~/web/session-cookie.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { allowCriticalRequest, releaseCriticalRequest, TOO_MANY_REQUESTS_MESSAGE } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";

const body = z.object({ username: z.string().default(""), password: z.string().default("") });

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (request.method !== "POST") return apiFail("方法不允许", 405);
    if (!(await allowCriticalRequest(clientIp(request)))) return apiFail(TOO_MANY_REQUESTS_MESSAGE, 429);
    const input = await readJson(request, body);
    const turnstile = await turnstileRefusal(new URL(request.url).searchParams.get("turnstile"), clientIp(request));
    if (turnstile) return apiFail(turnstile);
    try {
      const user = await checkPasswordSignIn(input.username.trim(), input.password);
      // The hit was taken before the check so a parallel burst of guesses cannot slip under the
      // limit; a right password gives it back (only failures count).
      await releaseCriticalRequest(clientIp(request));
      const cookie = await createSession(request, user.id);
      // The reference answers with a User whose only filled fields are these six.
      const data = {
        id: user.id,
        username: user.username,
        display_name: user.display_name,
        role: user.role,
        status: user.status,
        group: user.group,
      };
      return Response.json({ success: true, message: "", data }, { headers: { "Set-Cookie": cookie } });
    } catch (error) {
      if (error instanceof SignInError) return apiFail(error.message);
      throw error;
    }
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
