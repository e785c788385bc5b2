import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteLogsBefore, listLogs, logPageJson, readLogFilter, readLogSlice } from "~/domain/logs/logs.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { readLogPage } from "~/utils/pagination";

/** GET /api/log/: every user's logs for admins, filterable by user name and channel too. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const url = new URL(request.url);
    const { page, size } = readLogPage(url);
    const result = await listLogs(
      readLogFilter(url.searchParams, "all"),
      readLogSlice(url.searchParams, page, size),
      true,
    );
    return apiOk(logPageJson(result, page, size));
  });
}

/** DELETE /api/log/?target_timestamp=: clears logs older than that moment; data is the count. */
export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    if (request.method !== "DELETE") return apiFail("方法不允许", 405);
    const raw = new URL(request.url).searchParams.get("target_timestamp") ?? "";
    const before = Number(raw);
    if (!raw.trim() || !Number.isSafeInteger(before) || before <= 0)
      return apiFail("target_timestamp 必须是 Unix 时间戳（秒）");
    return apiOk(await deleteLogsBefore(before));
  });
}
