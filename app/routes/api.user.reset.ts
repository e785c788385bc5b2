import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { resetPasswordWithToken } from "~/domain/email/email-flows.server";
import { apiFail, apiOk, apiRoute, readJson } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { requireCriticalAndTurnstile } from "~/web/email-requests.server";

const body = z.object({ email: z.string().max(254).default(""), token: z.string().max(128).default("") });

/** `POST /api/user/reset {email, token}`: the new password (12 characters), once, as in the reference. */
export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    if (request.method !== "POST") return apiFail("方法不允许", 405);
    await requireCriticalAndTurnstile(request, { turnstile: false });
    const input = await readJson(request, body);
    const result = await resetPasswordWithToken(input.email, input.token);
    return result.ok ? apiOk(result.value) : apiFail(result.message);
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
