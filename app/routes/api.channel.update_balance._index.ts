import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { refreshChannelBalance } from "~/relay/channel-balance.server";
import { apiOk, apiRoute, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { getDb } from "~/utils/db.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/** Refreshes every enabled OpenAI-compatible channel's balance; reports how many succeeded. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const db = await getDb();
    const channels = await db
      .selectFrom("channels")
      .selectAll()
      .where("status", "=", CHANNEL_STATUS.enabled)
      .where("type", "in", [CHANNEL_TYPE.openai, CHANNEL_TYPE.custom])
      .execute();
    let refreshed = 0;
    for (const channel of channels) if ((await refreshChannelBalance(channel)).ok) refreshed += 1;
    return apiOk(refreshed, `已更新 ${refreshed} 个渠道的余额`);
  });
}
