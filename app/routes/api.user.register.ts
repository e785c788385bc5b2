import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { turnstileRefusal } from "~/domain/auth/turnstile.server";
import { registerWithPassword } from "~/domain/users/registration.server";
import { messages } from "~/messages";
import { apiFail, apiOk, apiRoute, readJson } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { allowCriticalRequest, TOO_MANY_REQUESTS_MESSAGE } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";

// Scripts call this without password2, as the reference allows; when it is sent it must match.
const body = z
  .object({
    username: z.string().trim().min(1, messages.usernameRequired).max(12, messages.usernameTooLong),
    password: z.string().min(8, messages.passwordTooShort).max(20, "密码长度不得超过 20 位"),
    password2: z.string().optional(),
    email: z.string().trim().optional(),
    verification_code: z.string().trim().optional(),
    aff_code: z.string().trim().max(32).optional(),
  })
  .refine((v) => v.password2 === undefined || v.password2 === v.password, {
    message: messages.passwordMismatch,
    path: ["password2"],
  });

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (!(await allowCriticalRequest(clientIp(request)))) return apiFail(TOO_MANY_REQUESTS_MESSAGE, 429);
    const input = await readJson(request, body);
    const turnstile = await turnstileRefusal(new URL(request.url).searchParams.get("turnstile"), clientIp(request));
    if (turnstile) return apiFail(turnstile);
    const result = await registerWithPassword(input);
    if (!result.ok) return apiFail(result.message);
    return apiOk(undefined, "");
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
