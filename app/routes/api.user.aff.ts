import type { LoaderFunctionArgs } from "@remix-run/node";
import { affCodeOf } from "~/domain/users/affiliate.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** The caller's invite code (made on first ask, as in the reference). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(await affCodeOf(user));
  });
}
