import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redemptionMessages } from "~/domain/redemptions/redemption-constants";
import { deleteRedemption, getRedemption, toRedemptionJson } from "~/domain/redemptions/redemptions.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const row = await getRedemption(parseId(params.id));
    return row ? apiOk(toRedemptionJson(row)) : apiFail(redemptionMessages.notFound);
  });
}

export function action({ request, params }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    if (request.method !== "DELETE") return apiFail("方法不允许", 405);
    const result = await deleteRedemption(parseId(params.id));
    return result.ok ? apiOk() : apiFail(result.message);
  });
}
