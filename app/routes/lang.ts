import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { rememberLanguage } from "~/domain/users/language.server";
import { isLocale, langCookie } from "~/i18n/locale";
import { optionalUser } from "~/web/guards.server";
import { readForm } from "~/utils/edge-input";
import { safeRedirectPath } from "~/utils/safe-redirect";

/**
 * The language switch: `POST /lang` (to, back) from a form, or `GET /lang?to=en&back=/path` from a
 * plain link, keeps the choice in the `lang` cookie for a year and sends the reader back to a
 * path of this site. A signed-in reader's choice is also kept on their account, for the mails
 * sent to them later. An unknown language changes nothing.
 */
async function switchLanguage(request: Request, to: unknown, back: unknown): Promise<Response> {
  const target = safeRedirectPath(back, new URL(request.url).origin, "/");
  if (!isLocale(to)) return redirect(target);
  const user = await optionalUser(request);
  if (user) await rememberLanguage(user.id, to);
  return redirect(target, { headers: { "Set-Cookie": langCookie(to), "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  return switchLanguage(request, form.get("to"), form.get("back"));
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return switchLanguage(request, url.searchParams.get("to"), url.searchParams.get("back"));
}
