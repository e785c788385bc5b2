import { createHmac } from "node:crypto";

/**
 * iFlytek's signed WebSocket URL: HMAC-SHA256 (APISecret) over "host: …\ndate: …\nGET <path>
 * HTTP/1.1", wrapped in an authorization line with the APIKey, base64'd and sent as the
 * `authorization` query parameter beside `date` and `host`.
 */
export function sparkSignature(apiSecret: string, host: string, date: string, path: string): string {
  return createHmac("sha256", apiSecret).update(`host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`).digest("base64");
}

export function sparkAuthorization(apiKey: string, signature: string): string {
  return Buffer.from(
    `api_key="${apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`,
  ).toString("base64");
}

export function signedSparkUrl(
  base: string,
  path: string,
  apiKey: string,
  apiSecret: string,
  date = new Date().toUTCString(),
): string {
  const host = new URL(base).host;
  const authorization = sparkAuthorization(apiKey, sparkSignature(apiSecret, host, date, path));
  const query = new URLSearchParams({ authorization, date, host });
  return `${base}${path}?${query.toString()}`;
}
