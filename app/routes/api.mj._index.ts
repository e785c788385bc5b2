import type { LoaderFunctionArgs } from "@remix-run/node";
import { listMjTasks, toMjJson } from "~/domain/tasks/midjourney.server";
import { readTaskFilter, readTaskPage } from "~/domain/tasks/task-list";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/mj/: every user's drawing tasks for admins, also filterable by channel_id. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const params = new URL(request.url).searchParams;
    const { items } = await listMjTasks(readTaskFilter(params, "mj_id", "all"), readTaskPage(params));
    return apiOk(items.map(toMjJson));
  });
}
