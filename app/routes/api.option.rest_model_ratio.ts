import type { ActionFunctionArgs } from "@remix-run/node";
import { resetModelRatio } from "~/domain/options/reset.server";
import { ROLE_ROOT } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** POST /api/option/rest_model_ratio (root): ModelRatio back to the built-in defaults. */
export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ROOT);
    if (request.method !== "POST") return apiFail("方法不允许", 405);
    const result = await resetModelRatio();
    return result.ok ? apiOk() : apiFail(result.message);
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
