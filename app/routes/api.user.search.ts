import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchUsers } from "~/domain/users/admin.server";
import { toPublicUser } from "~/domain/users/users.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { bootApp } from "~/web/boot.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await bootApp();
    await requireApiUser(request, ROLE_ADMIN);
    const params = new URL(request.url).searchParams;
    const users = await searchUsers(params.get("keyword") ?? "", params.get("group") ?? "");
    return apiOk(users.map(toPublicUser));
  });
}
