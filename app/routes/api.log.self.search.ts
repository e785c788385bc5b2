import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchLogs } from "~/domain/logs/log-search.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/log/self/search?keyword=: the caller's own logs matching the keyword, newest first, at most 100. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(await searchLogs(new URL(request.url).searchParams.get("keyword") ?? "", { userId: user.id }));
  });
}
