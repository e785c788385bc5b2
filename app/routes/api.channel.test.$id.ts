import type { LoaderFunctionArgs } from "@remix-run/node";
import { getChannel } from "~/domain/channels/channel-queries.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { testChannel } from "~/relay/channel-test.server";
import { apiFail, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/** The reference's shape: `{success, message, time}` with the time in seconds. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const channel = await getChannel(parseId(params.id));
    if (!channel) return apiFail("渠道未找到，请刷新页面后重试。");
    const result = await testChannel(channel, new URL(request.url).searchParams.get("model") ?? undefined);
    return Response.json({ success: result.success, message: result.message, time: result.time });
  });
}
