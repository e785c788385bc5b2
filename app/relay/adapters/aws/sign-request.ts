import { Hash } from "@smithy/hash-node";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentials } from "./credentials";

/**
 * Signs a JSON POST with AWS Signature Version 4 (the AWS SDK's own signer). The signed headers
 * are host, content-type, accept, x-amz-date; the Host header itself is left to the upstream
 * client, which sends the same `host[:port]` of the URL.
 */
export async function signAwsRequest(
  url: string,
  body: string,
  credentials: AwsCredentials,
  service: string,
  headers: Record<string, string>,
): Promise<Record<string, string>> {
  const target = new URL(url);
  const signer = new SignatureV4({
    service,
    region: credentials.region,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    sha256: Hash.bind(null, "sha256"),
  });
  const query: Record<string, string> = {};
  for (const [name, value] of target.searchParams) query[name] = value;
  const signed = await signer.sign({
    method: "POST",
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port ? Number(target.port) : undefined,
    path: target.pathname,
    query,
    headers: { ...headers, host: target.host },
    body,
  });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name.toLowerCase() !== "host") out[name] = value;
  return out;
}
