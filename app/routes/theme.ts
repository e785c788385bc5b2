import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/utils/safe-redirect";
import { serializeTheme } from "~/utils/theme.server";
import { readForm } from "~/utils/edge-input";

/** The dark-mode switch posts here (a plain form, so it works without JavaScript). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const theme = form.get("theme") === "dark" ? "dark" : "light";
  return redirect(safeRedirectPath(form.get("redirectTo"), new URL(request.url).origin, "/"), {
    headers: { "Set-Cookie": await serializeTheme(theme) },
  });
}

export function loader() {
  return redirect("/");
}
