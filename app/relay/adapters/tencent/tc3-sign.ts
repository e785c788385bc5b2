import { createHash, createHmac } from "node:crypto";

/**
 * Tencent Cloud API v3 signature (TC3-HMAC-SHA256) for a JSON POST to "/": the canonical request
 * signs content-type and host, the key is derived from the SecretKey through the UTC date, the
 * service and "tc3_request".
 */
export type Tc3Input = {
  secretId: string;
  secretKey: string;
  host: string;
  service: string;
  action: string;
  version: string;
  timestamp: number;
  payload: string;
  contentType?: string;
};

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");
const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();

export function tc3Date(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

export function tc3Signature(input: Tc3Input): string {
  const contentType = input.contentType ?? "application/json";
  const canonicalRequest = [
    "POST",
    "/",
    "",
    `content-type:${contentType}\nhost:${input.host}\n`,
    "content-type;host",
    sha256Hex(input.payload),
  ].join("\n");
  const date = tc3Date(input.timestamp);
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ["TC3-HMAC-SHA256", String(input.timestamp), scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), "tc3_request");
  return createHmac("sha256", signingKey).update(stringToSign).digest("hex");
}

export function tc3Headers(input: Tc3Input): Record<string, string> {
  const scope = `${tc3Date(input.timestamp)}/${input.service}/tc3_request`;
  return {
    "Content-Type": input.contentType ?? "application/json",
    "X-TC-Action": input.action,
    "X-TC-Version": input.version,
    "X-TC-Timestamp": String(input.timestamp),
    Authorization: `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=content-type;host, Signature=${tc3Signature(input)}`,
  };
}
