import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchLogs } from "~/domain/logs/log-search.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/log/search?keyword=: every user's logs matching the keyword, newest first, at most 100 (admins). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    return apiOk(await searchLogs(new URL(request.url).searchParams.get("keyword") ?? "", "all"));
  });
}
