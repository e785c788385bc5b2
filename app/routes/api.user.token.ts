import type { LoaderFunctionArgs } from "@remix-run/node";
import { regenerateAccessToken } from "~/domain/users/users.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** A new system access token each call (only its hash is kept, so this is the one chance to copy it). */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(await regenerateAccessToken(user.id));
  });
}
