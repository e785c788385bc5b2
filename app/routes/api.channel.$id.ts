import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteChannel, toChannelJson } from "~/domain/channels/channels.server";
import { getChannel } from "~/domain/channels/channel-queries.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const channel = await getChannel(parseId(params.id));
    return channel ? apiOk(toChannelJson(channel)) : apiFail("渠道未找到，请刷新页面后重试。");
  });
}

export function action({ request, params }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    if (request.method !== "DELETE") return apiFail("方法不允许", 405);
    const result = await deleteChannel(parseId(params.id));
    return result.ok ? apiOk() : apiFail(result.message);
  });
}
