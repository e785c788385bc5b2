import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { listPublicOptions, saveOption } from "~/domain/options/store.server";
import { ROLE_ROOT } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

// Console scripts send booleans and numbers as JSON values; they are stored as their string form.
// The reference's console leaves `value` out when a text field is empty: that saves "", and
// the option's own rules decide whether "" is allowed.
const body = z.object({ key: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean()]).default("") });

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ROOT);
    return apiOk(listPublicOptions());
  });
}

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ROOT);
    if (request.method !== "PUT") return apiFail("方法不允许", 405);
    const input = await readJson(request, body);
    const result = await saveOption(input.key, String(input.value));
    return result.ok ? apiOk() : apiFail(result.message);
  });
}
