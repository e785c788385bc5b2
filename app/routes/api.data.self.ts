import type { LoaderFunctionArgs } from "@remix-run/node";
import { readHourlyUsage, readUsageRange, SELF_MAX_RANGE, toQuotaDataJson } from "~/domain/usage/usage-data.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/data/self?start_timestamp=&end_timestamp=: the caller's own usage; at most 30 days. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const q = new URL(request.url).searchParams;
    const range = readUsageRange(q.get("start_timestamp"), q.get("end_timestamp"), SELF_MAX_RANGE);
    if (!range.ok) return apiFail(range.message);
    return apiOk(
      toQuotaDataJson(await readHourlyUsage({ kind: "user", userId: user.id }, range.value), {
        id: user.id,
        username: user.username,
      }),
    );
  });
}
