import type { LoaderFunctionArgs } from "@remix-run/node";
import { listMjTasks, toMjJson } from "~/domain/tasks/midjourney.server";
import { readTaskFilter, readTaskPage } from "~/domain/tasks/task-list";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/mj/self: the user's own drawing tasks, 10 a page, `p` 0-based (mj_id, start/end_timestamp in ms). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const params = new URL(request.url).searchParams;
    const { items } = await listMjTasks(readTaskFilter(params, "mj_id", { userId: user.id }), readTaskPage(params));
    return apiOk(items.map(toMjJson));
  });
}
