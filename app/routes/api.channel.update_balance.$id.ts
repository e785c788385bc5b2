import type { LoaderFunctionArgs } from "@remix-run/node";
import { getChannel } from "~/domain/channels/channel-queries.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { refreshChannelBalance } from "~/relay/channel-balance.server";
import { apiFail, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const channel = await getChannel(parseId(params.id));
    if (!channel) return apiFail("渠道未找到，请刷新页面后重试。");
    const result = await refreshChannelBalance(channel);
    return result.ok ? Response.json({ success: true, message: "", balance: result.value }) : apiFail(result.message);
  });
}
