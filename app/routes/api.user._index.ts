import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { addUser, editUser, listUsers } from "~/domain/users/admin.server";
import { addUserBody, editUserBody } from "~/domain/users/admin-input";
import { toPublicUser } from "~/domain/users/users.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { readPage } from "~/utils/pagination";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** The user list: an array as in the reference (p 0-based), the total beside it for pagers. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const { page, size } = readPage(new URL(request.url), "page_size");
    const { items, total } = await listUsers(page, size);
    return apiOk(items.map(toPublicUser), "", { total, page, page_size: size });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const actor = await requireApiUser(request, ROLE_ADMIN);
    if (request.method === "POST") {
      const result = await addUser(actor, await readJson(request, addUserBody));
      return result.ok ? apiOk() : apiFail(result.message);
    }
    if (request.method === "PUT") {
      const result = await editUser(actor, await readJson(request, editUserBody));
      return result.ok ? apiOk(toPublicUser(result.value)) : apiFail(result.message);
    }
    return apiFail("方法不允许", 405);
  });
}
