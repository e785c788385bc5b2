import type { ActionFunctionArgs } from "@remix-run/node";
import { fixAbilities } from "~/domain/channels/channels.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    return apiOk(await fixAbilities());
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
