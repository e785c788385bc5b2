import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idSchema } from "~/utils/edge-input";
import { MANAGE_ACTIONS, manageUser } from "~/domain/users/manage.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

const body = z.object({ id: idSchema, action: z.enum(MANAGE_ACTIONS, { error: "无效的参数" }) });

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const actor = await requireApiUser(request, ROLE_ADMIN);
    const input = await readJson(request, body);
    const result = await manageUser(actor, input.id, input.action);
    return result.ok ? apiOk({ role: result.value.role, status: result.value.status }) : apiFail(result.message);
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
