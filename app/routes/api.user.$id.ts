import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getUserForAdmin } from "~/domain/users/admin.server";
import { manageUser } from "~/domain/users/manage.server";
import { toPublicUser } from "~/domain/users/users.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const actor = await requireApiUser(request, ROLE_ADMIN);
    const result = await getUserForAdmin(actor, parseId(params.id));
    return result.ok ? apiOk(toPublicUser(result.value)) : apiFail(result.message);
  });
}

/** Deregisters the account (soft, like the row action 注销), with the same role rules. */
export function action({ request, params }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const actor = await requireApiUser(request, ROLE_ADMIN);
    if (request.method !== "DELETE") return apiFail("方法不允许", 405);
    const result = await manageUser(actor, parseId(params.id), "delete");
    return result.ok ? apiOk() : apiFail(result.message);
  });
}
