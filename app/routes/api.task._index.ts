import type { LoaderFunctionArgs } from "@remix-run/node";
import { listSunoTasks, toTaskJson } from "~/domain/tasks/suno.server";
import { readTaskFilter, readTaskPage } from "~/domain/tasks/task-list";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** GET /api/task/: every user's async tasks for admins, also filterable by channel_id. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const params = new URL(request.url).searchParams;
    const { items } = await listSunoTasks(readTaskFilter(params, "task_id", "all"), readTaskPage(params));
    return apiOk(items.map(toTaskJson));
  });
}
