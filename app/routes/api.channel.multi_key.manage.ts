import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { KEY_ACTIONS, manageChannelKey } from "~/domain/channels/channel-key-manage.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { idSchema } from "~/utils/edge-input";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

// The reference's endpoint for one key of a multi-key channel; enable_all_keys needs no index.
const body = z.object({
  channel_id: idSchema,
  action: z.enum(KEY_ACTIONS),
  key_index: z.coerce.number().int().min(0).max(10_000).optional(),
});

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    if (request.method !== "POST") return apiFail("方法不允许", 405);
    const input = await readJson(request, body);
    if (input.action !== "enable_all_keys" && input.key_index === undefined) return apiFail("请指定密钥序号 key_index");
    const result = await manageChannelKey(input.channel_id, input.action, input.key_index ?? 0);
    return result.ok ? apiOk(undefined, result.value) : apiFail(result.message);
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
