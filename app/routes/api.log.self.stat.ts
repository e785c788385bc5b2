import type { LoaderFunctionArgs } from "@remix-run/node";
import { logStat } from "~/domain/logs/log-stat.server";
import { readLogFilter } from "~/domain/logs/logs.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/log/self/stat: quota spent under the filters, and the last minute's rpm and tpm. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(await logStat(readLogFilter(new URL(request.url).searchParams, { userId: user.id })));
  });
}
