import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchTokens } from "~/domain/tokens/tokens.server";
import { toTokenApiJson } from "~/domain/tokens/token-wire.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const params = new URL(request.url).searchParams;
    const tokens = await searchTokens(user.id, params.get("keyword") ?? "", params.get("token") ?? "");
    return apiOk(tokens.map(toTokenApiJson));
  });
}
