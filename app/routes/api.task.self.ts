import type { LoaderFunctionArgs } from "@remix-run/node";
import { listSunoTasks, toTaskJson } from "~/domain/tasks/suno.server";
import { readTaskFilter, readTaskPage } from "~/domain/tasks/task-list";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/task/self: the user's own async tasks, 10 a page, `p` 0-based (task_id, start/end_timestamp in s). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const params = new URL(request.url).searchParams;
    const { items } = await listSunoTasks(readTaskFilter(params, "task_id", { userId: user.id }), readTaskPage(params));
    return apiOk(items.map(toTaskJson));
  });
}
