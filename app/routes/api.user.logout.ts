import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/web/api.server";
import { destroySession } from "~/web/session-cookie.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** The reference signs out on GET; the session row is deleted, so the old cookie is dead everywhere. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const cookie = await destroySession(request);
    return Response.json({ success: true, message: "" }, { headers: { "Set-Cookie": cookie } });
  });
}
