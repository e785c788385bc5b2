import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  ADMIN_MAX_RANGE,
  findUserIdByName,
  readHourlyUsage,
  readUsageRange,
  toQuotaDataJson,
} from "~/domain/usage/usage-data.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/**
 * GET /api/data/?start_timestamp=&end_timestamp=&username= (admin): usage per model and hour,
 * over all users or one user's (the reference's QuotaData rows).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const q = new URL(request.url).searchParams;
    const range = readUsageRange(q.get("start_timestamp"), q.get("end_timestamp"), ADMIN_MAX_RANGE);
    if (!range.ok) return apiFail(range.message);
    const username = q.get("username")?.trim() ?? "";
    if (!username) return apiOk(toQuotaDataJson(await readHourlyUsage({ kind: "all" }, range.value), undefined));
    const userId = await findUserIdByName(username);
    if (userId === undefined) return apiOk([]);
    return apiOk(
      toQuotaDataJson(await readHourlyUsage({ kind: "user", userId }, range.value), { id: userId, username }),
    );
  });
}
