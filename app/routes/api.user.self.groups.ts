import type { LoaderFunctionArgs } from "@remix-run/node";
import { userUsableGroups } from "~/domain/groups/groups.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await bootApp();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(userUsableGroups(user));
  });
}
