import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { deleteSelf, updateSelf } from "~/domain/users/self-service.server";
import { toPublicUser } from "~/domain/users/users.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { currentSessionId, destroySession } from "~/web/session-cookie.server";
import { whenBooted } from "~/utils/boot-gate.server";

const update = z.object({
  // Length and uniqueness are checked by updateSelf, with registration's messages.
  username: z.string().optional(),
  display_name: z.string().max(20).optional(),
  password: z.string().optional(),
  // The reference's console sends original_password; old_password is accepted as an alias.
  original_password: z.string().optional(),
  old_password: z.string().optional(),
});

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    return apiOk(toPublicUser(user));
  });
}

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    if (request.method === "PUT") {
      const input = await readJson(request, update);
      const result = await updateSelf(
        user,
        { ...input, original_password: input.original_password ?? input.old_password },
        await currentSessionId(request),
      );
      return result.ok ? apiOk() : apiFail(result.message);
    }
    if (request.method === "DELETE") {
      const result = await deleteSelf(user);
      if (!result.ok) return apiFail(result.message);
      // Every session of the account is gone already (deleteSelf); this also clears the caller's cookie.
      const response = apiOk();
      response.headers.append("Set-Cookie", await destroySession(request));
      return response;
    }
    return apiFail("方法不允许", 405);
  });
}
