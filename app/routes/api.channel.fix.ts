import type { ActionFunctionArgs } from "@remix-run/node";
import { fixAbilities } from "~/domain/channels/channels.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await bootApp();
    await requireApiUser(request, ROLE_ADMIN);
    return apiOk(await fixAbilities());
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
