import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idSchema } from "~/utils/edge-input";
import { channelFieldsSchema, CREATE_MODES } from "~/domain/channels/channel-input";
import { createChannels, setChannelStatus, toChannelJson, updateChannel } from "~/domain/channels/channels.server";
import { listChannels } from "~/domain/channels/channel-queries.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { readPage } from "~/utils/pagination";

// The reference's console sends {mode, multi_key_mode, channel: {...}}; older clients send the
// channel's fields at the top level (then the key lines make one channel each, as before).
const createBody = channelFieldsSchema.extend({
  mode: z.enum(CREATE_MODES).optional(),
  channel: channelFieldsSchema.optional(),
});
const updateBody = channelFieldsSchema.extend({
  id: idSchema,
  status: z.coerce.number().int().min(1).max(2).optional(),
});

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const url = new URL(request.url);
    const { page, size } = readPage(url, "page_size");
    const idSort = url.searchParams.get("id_sort") === "true";
    const { items, total } = await listChannels(page, size, idSort);
    return apiOk(items.map(toChannelJson), "", { total });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    if (request.method === "POST") {
      const { mode, channel, ...top } = await readJson(request, createBody);
      const fields = channel ?? top;
      const result = await createChannels(fields, { mode, multiKeyMode: top.multi_key_mode ?? fields.multi_key_mode });
      return result.ok ? apiOk(undefined, "") : apiFail(result.message);
    }
    if (request.method === "PUT") {
      const { id, status, ...input } = await readJson(request, updateBody);
      // The reference's console enables and disables a channel by PUTting {id, status}.
      if (status !== undefined) {
        const changed = await setChannelStatus(id, status);
        if (!changed.ok) return apiFail(changed.message);
      }
      const result = await updateChannel(id, input);
      return result.ok ? apiOk(toChannelJson(result.value)) : apiFail(result.message);
    }
    return apiFail("方法不允许", 405);
  });
}
