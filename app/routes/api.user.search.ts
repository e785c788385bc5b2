import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchUsers } from "~/domain/users/admin.server";
import { toPublicUser } from "~/domain/users/users.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { readPage } from "~/utils/pagination";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const url = new URL(request.url);
    const { page, size } = readPage(url, "page_size", 100);
    const users = await searchUsers(
      url.searchParams.get("keyword") ?? "",
      url.searchParams.get("group") ?? "",
      page,
      size,
    );
    return apiOk(users.map(toPublicUser));
  });
}
