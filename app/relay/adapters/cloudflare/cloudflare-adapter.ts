import { createCompatibleAdapter } from "../openai-compatible/compatible-adapter";
import { ChannelConfigError, type ChannelAddress, type UpstreamError } from "../types";

/** The Cloudflare account id from the channel's `other`; without it no Workers AI URL exists. */
function accountOf(channel: ChannelAddress): string {
  const account = channel.other.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(account)) throw new ChannelConfigError(`Cloudflare 渠道 #${channel.id} 需要在「其他」中填写 Account ID`);
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
export const cloudflareAdapter = createCompatibleAdapter({
  defaultBase: "https://api.cloudflare.com",
  name: "Cloudflare",
  modes: ["chat", "completions", "embeddings"],
  mapPath: (path, ctx) => `/client/v4/accounts/${accountOf(ctx.channel)}/ai${path}`,
  // Workers AI lists its catalogue (not OpenAI-shaped) at /ai/models/search: parsed below.
  modelsPath: null,
  parseError: parseCloudflareError,
});
