import { getChannel } from "~/domain/channels/channel-queries.server";
import { normaliseBaseUrl, type ModelLister } from "~/domain/channels/channel-input";
import { listUpstreamModels } from "./channel-models.server";
import { channelKeyForCall } from "~/domain/channels/channel-key.server";

/**
 * The channel form's "获取模型列表": asks the upstream with the values in the form. Editing with a
 * blank key uses the stored key — of this channel only, and only toward the base URL typed in
 * the form, which the admin controls anyway.
 */
export function formModelLister(channelId?: number): ModelLister {
  return async (form) => {
    let key = form.key;
    if (!key && channelId) {
      const channel = await getChannel(channelId);
      if (channel) key = channelKeyForCall(channel);
    }
    if (!key) return { ok: false, message: "请先填写密钥" };
    return listUpstreamModels(
      { id: channelId ?? 0, type: form.type, base_url: normaliseBaseUrl(form.base_url), other: form.other },
      key,
    );
  };
}
