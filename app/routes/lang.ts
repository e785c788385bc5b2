import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { isLocale, langCookie } from "~/i18n/locale";
import { readForm } from "~/utils/edge-input";
import { safeRedirectPath } from "~/utils/safe-redirect";

/**
 * The language switch: `POST /lang` (to, back) from a form, or `GET /lang?to=en&back=/path` from a
 * plain link, keeps the choice in the `lang` cookie for a year and sends the reader back to a
 * path of this site. An unknown language changes nothing.
 */
function switchLanguage(request: Request, to: unknown, back: unknown): Response {
  const target = safeRedirectPath(back, new URL(request.url).origin, "/");
  if (!isLocale(to)) return redirect(target);
  return redirect(target, { headers: { "Set-Cookie": langCookie(to), "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  return switchLanguage(request, form.get("to"), form.get("back"));
}

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return switchLanguage(request, url.searchParams.get("to"), url.searchParams.get("back"));
}
