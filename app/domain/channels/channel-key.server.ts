import type { Channel } from "../../../db/schema";
import { decryptSecret } from "~/utils/secrets.server";
import { firstUsableKey, parseChannelInfo } from "./multi-key";

/** The opened key a call outside the relay uses for this channel (multi-key: its first enabled key). */
export function channelKeyForCall(channel: Pick<Channel, "key_encrypted" | "channel_info">): string {
  return firstUsableKey(decryptSecret(channel.key_encrypted), parseChannelInfo(channel.channel_info));
}
