import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteToken, getToken } from "~/domain/tokens/tokens.server";
import { toTokenApiJson } from "~/domain/tokens/token-wire.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const token = await getToken(user.id, parseId(params.id));
    return token ? apiOk(toTokenApiJson(token)) : apiFail("令牌不存在");
  });
}

export function action({ request, params }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    if (request.method !== "DELETE") return apiFail("方法不允许", 405);
    const result = await deleteToken(user.id, parseId(params.id));
    return result.ok ? apiOk() : apiFail(result.message);
  });
}
