import type { ActionFunctionArgs } from "@remix-run/node";
import { copyChannel } from "~/domain/channels/channels.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function action({ request, params }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const suffix = new URL(request.url).searchParams.get("suffix") ?? "_复制";
    const result = await copyChannel(parseId(params.id), suffix.slice(0, 20));
    return result.ok ? apiOk({ id: result.value }, "渠道复制成功") : apiFail(result.message);
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
