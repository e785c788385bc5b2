import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { messages } from "~/messages";
import { readForm } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { oauthRateLimited, signedInLocation, telegramSignIn } from "~/web/oauth.server";

/**
 * The login page's Telegram widget posts its signed fields here (its `data-onauth` handler
 * submits a same-origin form). A POST and not the widget's `data-auth-url` GET on purpose: a GET
 * link carrying someone else's signed fields, opened from another site, would sign the visitor
 * into that someone's account; a cross-site POST is refused before it gets here (decision 018).
 */
export async function action({ request }: ActionFunctionArgs) {
  await whenBooted();
  if (await oauthRateLimited(request))
    return redirectWithFlash("/login", { type: "error", message: messages.tooManyRequests });
  const form = await readForm(request);
  const params = new URLSearchParams();
  for (const [key, value] of form) if (typeof value === "string") params.append(key, value);
  const outcome = await telegramSignIn(request, params);
  if (!outcome.ok) return redirectWithFlash("/login", { type: "error", message: outcome.message });
  if (outcome.mode !== "login") return redirect("/setting");
  return redirect(signedInLocation(), { headers: { "Set-Cookie": outcome.cookie } });
}

export function loader() {
  return redirect("/login");
}
