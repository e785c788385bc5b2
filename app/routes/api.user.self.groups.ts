import type { LoaderFunctionArgs } from "@remix-run/node";
import { userUsableGroups } from "~/domain/groups/groups.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(userUsableGroups(user));
  });
}
