import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/utils/guards.server";
import { serializeTheme } from "~/utils/theme.server";

/** The dark-mode switch posts here (a plain form, so it works without JavaScript). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const theme = form.get("theme") === "dark" ? "dark" : "light";
  return redirect(safeRedirectPath(form.get("redirectTo"), "/"), { headers: { "Set-Cookie": await serializeTheme(theme) } });
}

export function loader() {
  return redirect("/");
}
