import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { messages } from "~/messages";
import { readForm } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { oauthRateLimited, signedInLocation, wechatSignIn } from "~/web/oauth.server";

/** The login page's WeChat form (a plain POST): the code from the official account signs in. */
export async function action({ request }: ActionFunctionArgs) {
  await whenBooted();
  if (await oauthRateLimited(request))
    return redirectWithFlash("/login", { type: "error", message: messages.tooManyRequests });
  const code = String((await readForm(request)).get("code") ?? "");
  const outcome = await wechatSignIn(request, code);
  if (!outcome.ok) return redirectWithFlash("/login", { type: "error", message: outcome.message });
  if (outcome.mode !== "login") return redirect("/setting");
  return redirect(signedInLocation(), { headers: { "Set-Cookie": outcome.cookie } });
}

export function loader() {
  return redirect("/login");
}
