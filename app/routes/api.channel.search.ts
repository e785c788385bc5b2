import type { LoaderFunctionArgs } from "@remix-run/node";
import { toChannelJson } from "~/domain/channels/channels.server";
import { searchChannels } from "~/domain/channels/channel-queries.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const params = new URL(request.url).searchParams;
    const channels = await searchChannels(
      { keyword: params.get("keyword") ?? "", group: params.get("group") ?? "", model: params.get("model") ?? "" },
      params.get("id_sort") === "true",
    );
    return apiOk(channels.map(toChannelJson));
  });
}
