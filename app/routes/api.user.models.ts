import type { LoaderFunctionArgs } from "@remix-run/node";
import { listModelsForGroup } from "~/domain/groups/models.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(await listModelsForGroup(user.group));
  });
}
