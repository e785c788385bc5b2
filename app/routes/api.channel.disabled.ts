import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteDisabledChannels } from "~/domain/channels/channels.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    if (request.method !== "DELETE") return apiFail("方法不允许", 405);
    return apiOk(await deleteDisabledChannels());
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
