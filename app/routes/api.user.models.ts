import type { LoaderFunctionArgs } from "@remix-run/node";
import { listModelsForGroup } from "~/domain/groups/models.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await bootApp();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(await listModelsForGroup(user.group));
  });
}
