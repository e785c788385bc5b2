import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idSchema } from "~/utils/edge-input";
import { deleteChannels } from "~/domain/channels/channels.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

const body = z.object({ ids: z.array(idSchema).min(1, "请先选择要删除的通道！").max(1000) });

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const input = await readJson(request, body);
    return apiOk(await deleteChannels(input.ids));
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
