import { createHash } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import { readCount } from "../../billing/usage-parse";
import { guardedHttp } from "~/utils/guarded-http.server";
import { ChannelConfigError } from "../types";
import type { ServiceAccount } from "./service-account";

/**
 * OAuth access tokens for service accounts (RFC 7523 JWT bearer grant, as Google documents it):
 * a JWT signed RS256 with the account's private key is exchanged at its `token_uri` for a token
 * valid about an hour. Tokens are cached in memory per account until shortly before they expire,
 * and concurrent requests that find none share one exchange.
 */
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const EXCHANGE_TIMEOUT_MS = 10_000;
/** A token is renewed this long before its expiry (a request in flight must not carry a dead one). */
const RENEW_MARGIN_MS = 5 * 60_000;

type Cached = { token: string; renewAt: number };
const cache = new Map<string, Cached>();
const inFlight = new Map<string, Promise<string>>();

export class TokenExchangeError extends Error {}

// Per account, token endpoint and private key: a token is only ever served to a channel whose
// own key could have obtained it (a channel with a wrong key for the same account gets none).
const cacheKeys = new WeakMap<ServiceAccount, string>();
function cacheKey(account: ServiceAccount): string {
  let key = cacheKeys.get(account);
  if (key === undefined) {
    key = `${account.clientEmail}\n${account.tokenUri}\n${createHash("sha256").update(account.privateKey).digest("base64")}`;
    cacheKeys.set(account, key);
  }
  return key;
}

export async function signAssertion(
  account: ServiceAccount,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  let key: CryptoKey;
  try {
    key = await importPKCS8(account.privateKey, "RS256");
  } catch {
    throw new ChannelConfigError("Vertex AI 服务账号 private_key 不是有效的 PKCS#8 RSA 私钥");
  }
  return new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + 3600)
    .sign(key);
}

async function exchange(account: ServiceAccount): Promise<string> {
  const assertion = await signAssertion(account);
  // The token URI comes from the key an admin pasted: fetched through the SSRF guard, bounded in time and size.
  const reply = await guardedHttp(account.tokenUri, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
    timeoutMs: EXCHANGE_TIMEOUT_MS,
    maxBytes: 64 * 1024,
  });
  let json: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    json = JSON.parse(reply.body) as typeof json;
  } catch {}
  if (reply.status !== 200 || typeof json.access_token !== "string" || !json.access_token) {
    const why =
      typeof json.error_description === "string"
        ? json.error_description
        : typeof json.error === "string"
          ? json.error
          : `HTTP ${reply.status}`;
    const message = `获取 Vertex AI 访问令牌失败：${why}`;
    // The endpoint refused this account's assertion (invalid_grant, a deleted key): the channel's
    // credential is wrong, so the next channel is tried. A 5xx or an unreadable reply may pass.
    if (reply.status >= 400 && reply.status < 500) throw new ChannelConfigError(message);
    throw new TokenExchangeError(message);
  }
  const expiresIn = readCount(json.expires_in);
  const lifetimeMs = (typeof expiresIn === "number" && expiresIn > 0 ? Math.min(expiresIn, 3600) : 3600) * 1000;
  // Short-lived tokens are renewed at half their life rather than never cached.
  const renewAt = Date.now() + Math.max(lifetimeMs - RENEW_MARGIN_MS, lifetimeMs / 2);
  cache.set(cacheKey(account), { token: json.access_token, renewAt });
  return json.access_token;
}

export function accessToken(account: ServiceAccount): Promise<string> {
  const key = cacheKey(account);
  const cached = cache.get(key);
  if (cached && cached.renewAt > Date.now()) return Promise.resolve(cached.token);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = exchange(account).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** Tests: forget every cached token. */
export function clearAccessTokens(): void {
  cache.clear();
}
