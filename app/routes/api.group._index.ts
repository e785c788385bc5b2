import type { LoaderFunctionArgs } from "@remix-run/node";
import { listGroupNames } from "~/domain/groups/groups.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await bootApp();
    await requireApiUser(request, ROLE_ADMIN);
    return apiOk(listGroupNames());
  });
}
