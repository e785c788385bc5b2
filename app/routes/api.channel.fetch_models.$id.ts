import type { LoaderFunctionArgs } from "@remix-run/node";
import { fetchUpstreamModels } from "~/relay/channel-models.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const result = await fetchUpstreamModels(parseId(params.id));
    return result.ok ? apiOk(result.value) : apiFail(result.message);
  });
}
