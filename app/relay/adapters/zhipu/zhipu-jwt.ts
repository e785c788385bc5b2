import { createHmac } from "node:crypto";
import { ChannelConfigError } from "../types";

/**
 * Zhipu's API key `id.secret` is not sent: a JWT signed with the secret is (HS256, with the
 * header field sign_type "SIGN" Zhipu requires; exp and timestamp in milliseconds). One token per
 * key is reused until shortly before it expires.
 */
const TOKEN_TTL_MS = 30 * 60 * 1000;
const RENEW_MARGIN_MS = 60 * 1000;
const MAX_CACHED = 1_000;

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

export function signZhipuJwt(apiKey: string, nowMs: number, ttlMs = TOKEN_TTL_MS): string {
  const dot = apiKey.indexOf(".");
  if (dot <= 0 || dot === apiKey.length - 1) throw new ChannelConfigError("智谱密钥格式错误，应为 id.secret");
  const id = apiKey.slice(0, dot);
  const secret = apiKey.slice(dot + 1);
  const header = base64url(JSON.stringify({ alg: "HS256", sign_type: "SIGN" }));
  const payload = base64url(JSON.stringify({ api_key: id, exp: nowMs + ttlMs, timestamp: nowMs }));
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

const cache = new Map<string, { token: string; expiresAt: number }>();

export function zhipuToken(apiKey: string, nowMs = Date.now()): string {
  const cached = cache.get(apiKey);
  if (cached && cached.expiresAt - RENEW_MARGIN_MS > nowMs) return cached.token;
  const token = signZhipuJwt(apiKey, nowMs);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(apiKey, { token, expiresAt: nowMs + TOKEN_TTL_MS });
  return token;
}
