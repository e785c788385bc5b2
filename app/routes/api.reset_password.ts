import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestLocale } from "~/i18n/locale";
import { sendPasswordResetMail } from "~/domain/email/email-flows.server";
import { messages } from "~/messages";
import { apiFail, apiOk, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { queryText, requireCriticalAndTurnstile } from "~/web/email-requests.server";

/** `GET /api/reset_password?email=&turnstile=`: mails a single-use reset link. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireCriticalAndTurnstile(request, { turnstile: true });
    const result = await sendPasswordResetMail(queryText(request, "email"), requestLocale(request));
    return result.ok ? apiOk(undefined, messages.resetMailSent) : apiFail(result.message);
  });
}
