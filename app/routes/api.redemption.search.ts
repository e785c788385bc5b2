import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchRedemptions, toRedemptionJson } from "~/domain/redemptions/redemptions.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const rows = await searchRedemptions(new URL(request.url).searchParams.get("keyword") ?? "");
    return apiOk(rows.map(toRedemptionJson));
  });
}
