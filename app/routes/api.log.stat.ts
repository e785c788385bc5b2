import type { LoaderFunctionArgs } from "@remix-run/node";
import { logStat } from "~/domain/logs/log-stat.server";
import { readLogFilter } from "~/domain/logs/logs.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/log/stat: the admin's stat line, over every user unless filtered. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    return apiOk(await logStat(readLogFilter(new URL(request.url).searchParams, "all")));
  });
}
