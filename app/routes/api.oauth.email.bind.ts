import type { LoaderFunctionArgs } from "@remix-run/node";
import { bindEmail } from "~/domain/email/email-flows.server";
import { ROLE_USER } from "~/domain/users/roles";
import { messages } from "~/messages";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { queryText, requireCriticalAndTurnstile } from "~/web/email-requests.server";

/** `GET /api/oauth/email/bind?email=&code=`: binds the address the code from /api/verification went to. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireCriticalAndTurnstile(request, { turnstile: false });
    const user = await requireApiUser(request, ROLE_USER);
    const result = await bindEmail(user, queryText(request, "email"), queryText(request, "code"));
    return result.ok ? apiOk(undefined, messages.emailBound) : apiFail(result.message);
  });
}
