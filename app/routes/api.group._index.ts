import type { LoaderFunctionArgs } from "@remix-run/node";
import { listGroupNames } from "~/domain/groups/groups.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    return apiOk(listGroupNames());
  });
}
