import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { whenBooted } from "~/utils/boot-gate.server";
import { destroySession } from "~/web/session-cookie.server";

export async function action({ request }: ActionFunctionArgs) {
  await whenBooted();
  return redirect("/login", { headers: { "Set-Cookie": await destroySession(request) } });
}

// A GET must not sign anyone out (a prefetch or an <img> could), so it only leads home.
export function loader() {
  return redirect("/");
}
