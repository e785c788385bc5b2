import { readAll, sendUpstream } from "../../upstream-client.server";
import { CredentialCache } from "../shared/credential-cache";
import { ChannelConfigError } from "../types";

/**
 * Baidu's `APIKey|SecretKey` is exchanged for an access token (valid 30 days) at
 * /oauth/2.0/token. Tokens are cached per base URL and key until a day before expiry; concurrent
 * requests share one exchange; the exchange is bounded by its own timeout (it runs before the
 * chat call's transport exists).
 */
const RENEW_MARGIN_MS = 24 * 60 * 60 * 1000;
const EXCHANGE_TIMEOUT_MS = 10_000;
const cache = new CredentialCache<string>(RENEW_MARGIN_MS);

/** The token endpoint said no (wrong key, or a failing endpoint): its status and body, for the client and auto-disable. */
export class BaiduTokenRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`百度 access_token 获取失败（${status}）`);
  }
}

export type BaiduCredential = { base: string; apiKey: string; secretKey: string };

export function parseBaiduKey(key: string): { apiKey: string; secretKey: string } {
  const [apiKey, secretKey, ...rest] = key.split("|").map((p) => p.trim());
  if (!apiKey || !secretKey || rest.length) throw new ChannelConfigError("百度密钥格式错误，应为 APIKey|SecretKey");
  return { apiKey, secretKey };
}

export function tokenUrl({ base, apiKey, secretKey }: BaiduCredential): string {
  return `${base}/oauth/2.0/token?grant_type=client_credentials&client_id=${encodeURIComponent(apiKey)}&client_secret=${encodeURIComponent(secretKey)}`;
}

async function exchange(credential: BaiduCredential): Promise<{ value: string; expiresAt: number }> {
  const reply = await sendUpstream(tokenUrl(credential), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: "",
    connectTimeoutMs: EXCHANGE_TIMEOUT_MS,
    signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
  });
  const text = (await readAll(reply)).toString("utf8");
  let json: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {}
  if (reply.statusCode !== 200 || typeof json.access_token !== "string" || !json.access_token) {
    // Baidu answers a wrong key with 401 invalid_client; an error body under 200 means the same.
    const status = reply.statusCode === 200 ? (json.error === "invalid_client" ? 401 : 502) : (reply.statusCode ?? 502);
    throw new BaiduTokenRefused(status, text);
  }
  const seconds = typeof json.expires_in === "number" && json.expires_in > 0 ? json.expires_in : 2_592_000;
  return { value: json.access_token, expiresAt: Date.now() + seconds * 1000 };
}

const cacheKey = (c: BaiduCredential) => `${c.base}\n${c.apiKey}\n${c.secretKey}`;

export function baiduAccessToken(credential: BaiduCredential): Promise<string> {
  return cache.get(cacheKey(credential), () => exchange(credential));
}

export function forgetBaiduAccessToken(credential: BaiduCredential, token: string): void {
  cache.invalidate(cacheKey(credential), token);
}
