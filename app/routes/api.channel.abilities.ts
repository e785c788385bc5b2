import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { getDb } from "~/utils/db.server";

/**
 * The routing table itself (group × model × channel with priority, weight, enabled), so an
 * operator can see why a request went where it did. Not in the reference; admin only.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const params = new URL(request.url).searchParams;
    const db = await getDb();
    let query = db
      .selectFrom("abilities")
      .selectAll()
      .orderBy("group")
      .orderBy("model")
      .orderBy("priority", "desc")
      .orderBy("channel_id")
      .limit(5000);
    if (params.get("group")) query = query.where("group", "=", params.get("group")!);
    if (params.get("model")) query = query.where("model", "=", params.get("model")!);
    if (params.get("channel_id"))
      query = query.where("channel_id", "=", parseId(params.get("channel_id") ?? undefined));
    return apiOk(await query.execute());
  });
}
