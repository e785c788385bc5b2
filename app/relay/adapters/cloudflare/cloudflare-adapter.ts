import { createCompatibleAdapter } from "../openai-compatible/compatible-adapter";
import { channelBase } from "../shared/channel-base";
import { ChannelConfigError, type Adapter, type ChannelAddress, type UpstreamError } from "../types";

/** The Cloudflare account id from the channel's `other`; without it no Workers AI URL exists. */
function accountOf(channel: ChannelAddress): string {
  const account = channel.other.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(account))
    throw new ChannelConfigError(`Cloudflare 渠道 #${channel.id} 需要在「其他」中填写 Account ID`);
  return account;
}

/** `{"success":false,"errors":[{"code":10000,"message":"Authentication error"}]}` (the Cloudflare API envelope). */
export function parseCloudflareError(status: number, text: string): UpstreamError {
  try {
    const parsed = JSON.parse(text) as { errors?: { code?: unknown; message?: unknown }[]; error?: unknown };
    const first = Array.isArray(parsed.errors) ? parsed.errors[0] : undefined;
    if (first && typeof first.message === "string") {
      const type = status === 401 || status === 403 ? "authentication_error" : "upstream_error";
      return { message: first.message, type, code: first.code === undefined ? null : String(first.code) };
    }
    if (typeof parsed.error === "string") return { message: parsed.error, type: "upstream_error", code: null };
  } catch {}
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}

/**
 * Cloudflare Workers AI (type 39): its OpenAI-compatible endpoints under the account path,
 * `{base}/client/v4/accounts/{account}/ai/v1/chat/completions` (and /embeddings), with the API
 * token as Bearer.
 */
const DEFAULT_BASE = "https://api.cloudflare.com";

const compatible = createCompatibleAdapter({
  defaultBase: DEFAULT_BASE,
  name: "Cloudflare",
  modes: ["chat", "completions", "embeddings"],
  mapPath: (path, ctx) => `/client/v4/accounts/${accountOf(ctx.channel)}/ai${path}`,
  modelsPath: null,
  parseError: parseCloudflareError,
});

/** Workers AI lists its catalogue in the API envelope: `{result:[{name:"@cf/…"}]}`. */
export function parseCloudflareModels(raw: string): string[] {
  const body = JSON.parse(raw) as { result?: { name?: unknown }[] };
  const names = (Array.isArray(body.result) ? body.result : [])
    .map((m) => m?.name)
    .filter((n): n is string => typeof n === "string" && n.length <= 256);
  return [...new Set(names)].sort();
}

export const cloudflareAdapter: Adapter = {
  ...compatible,
  listModels: {
    request: (channel, key) => ({
      url: `${channelBase(channel, DEFAULT_BASE)}/client/v4/accounts/${accountOf(channel)}/ai/models/search?per_page=1000`,
      method: "GET",
      headers: { Authorization: `Bearer ${key}` },
      body: "",
    }),
    parse: parseCloudflareModels,
  },
};
