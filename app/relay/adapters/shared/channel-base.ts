import { ChannelConfigError, type AdapterContext, type ChannelAddress, type RelayMode } from "../types";

/**
 * The channel's own base URL, else its type's catalogue default, without trailing slashes. A
 * channel with neither is refused (ChannelConfigError: the next channel is tried, this one is not
 * disabled) — never sent with its key to some other provider's host.
 */
export function channelBase(channel: ChannelAddress, defaultBase: string): string {
  const base = (channel.base_url || defaultBase).replace(/\/+$/, "");
  if (!base) throw new ChannelConfigError(channel.id ? `渠道 #${channel.id} 未设置 Base URL` : "未设置 Base URL");
  return base;
}

/** A relay mode the provider does not serve: refused before anything is sent. */
export function requireMode(ctx: AdapterContext, served: readonly RelayMode[], provider: string): void {
  if (!served.includes(ctx.mode)) throw new ChannelConfigError(`${provider} 渠道不支持此接口（${ctx.path}）`);
}
