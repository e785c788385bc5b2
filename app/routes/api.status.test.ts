import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROLE_ROOT } from "~/domain/users/roles";
import { checkDatabase } from "~/utils/health.server";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/**
 * The reference's root-only "is the database there" probe, which its console calls. The check is
 * bounded like /healthz's, so a database that hangs answers success:false instead of hanging.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ROOT);
    const db = await checkDatabase(Promise.resolve());
    return db.ok ? apiOk() : apiFail(db.error ?? "数据库不可用");
  });
}
