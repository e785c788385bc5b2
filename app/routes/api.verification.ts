import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestLocale } from "~/i18n/locale";
import { sendVerificationCode } from "~/domain/email/email-flows.server";
import { messages } from "~/messages";
import { apiFail, apiOk, apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { queryText, requireCriticalAndTurnstile } from "~/web/email-requests.server";

/** `GET /api/verification?email=&turnstile=`: mails a registration or binding code (visitors may call it). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireCriticalAndTurnstile(request, { turnstile: true });
    const result = await sendVerificationCode(queryText(request, "email"), requestLocale(request));
    return result.ok ? apiOk(undefined, messages.verificationCodeSent) : apiFail(result.message);
  });
}
