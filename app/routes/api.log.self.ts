import type { LoaderFunctionArgs } from "@remix-run/node";
import { listLogs, logPageJson, readLogFilter, readLogSlice } from "~/domain/logs/logs.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { readLogPage } from "~/utils/pagination";

/** GET /api/log/self: the signed-in user's own logs, newest first (`p` is 1-based here). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const url = new URL(request.url);
    const { page, size } = readLogPage(url);
    const result = await listLogs(
      readLogFilter(url.searchParams, { userId: user.id }),
      readLogSlice(url.searchParams, page, size),
      false,
    );
    return apiOk(logPageJson(result, page, size));
  });
}
