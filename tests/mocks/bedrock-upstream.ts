import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { crc32 } from "node:zlib";
import { readBody } from "./http-helpers";
import { writeFragmented } from "./fragmented-writer";
import type { RecordedRequest } from "./openai-upstream";

/**
 * A loopback Bedrock runtime: `POST /model/{modelId}/invoke` and `/invoke-with-response-stream`.
 * Every request's SigV4 signature is RECOMPUTED here from the raw request (an implementation of
 * the algorithm as AWS documents it, independent of the signer the gateway uses) and refused with
 * 403 when it differs. Streams are AWS event-stream binary messages (prelude, headers, payload,
 * CRC32s) wrapping Anthropic events, written in pieces that split messages.
 */
export type BedrockMock = {
  url: string;
  requests: RecordedRequest[];
  /** Why requests were refused (signature mismatches…). */
  refused: string[];
  fault?: { status: number; type: string; message: string };
  /** A stream that stops with this exception message after its first event. */
  streamException?: { type: string; message: string };
  close: () => Promise<void>;
};

const anthropicFixture = (name: string) =>
  readFileSync(new URL(`../fixtures/upstream/anthropic/${name}`, import.meta.url), "utf8");
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Checks the request's SigV4 Authorization; returns why it fails, or undefined when it holds. */
export function verifySigV4(
  req: IncomingMessage,
  body: string,
  credentials: { accessKeyId: string; secretAccessKey: string; region: string; service: string },
): string | undefined {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? "",
    );
  if (!auth) return "malformed Authorization";
  const [, accessKeyId, date, region, service, signedHeaders, signature] = auth;
  if (accessKeyId !== credentials.accessKeyId) return "unknown access key";
  if (region !== credentials.region || service !== credentials.service) return "wrong credential scope";
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || !amzDate.startsWith(date!)) return "bad x-amz-date";
  const when = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  if (Math.abs(Date.now() - when) > 5 * 60_000) return "request time too skewed";
  const names = signedHeaders!.split(";");
  if (!names.includes("host") || !names.includes("x-amz-date")) return "host and x-amz-date must be signed";
  const url = new URL(req.url ?? "/", "http://mock");
  // Non-S3 services sign the path URI-encoded once more (each segment of the path as sent).
  const canonicalPath = url.pathname.split("/").map(rfc3986).join("/");
  const canonicalQuery = [...url.searchParams]
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join("&");
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonicalRequest = [
    req.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    sha256(body),
  ].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date!), region!), service!), "aws4_request");
  const expected = createHmac("sha256", key).update(stringToSign).digest();
  return timingSafeEqual(expected, Buffer.from(signature!, "hex")) ? undefined : "signature mismatch";
}

/** One event-stream message: prelude (total length, headers length, CRC32), string headers, payload, CRC32. */
export function encodeEventMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const n = Buffer.from(name);
      const v = Buffer.from(value);
      const head = Buffer.alloc(1 + n.length + 1 + 2);
      head.writeUInt8(n.length, 0);
      n.copy(head, 1);
      head.writeUInt8(7, 1 + n.length); // 7: string
      head.writeUInt16BE(v.length, 2 + n.length);
      return Buffer.concat([head, v]);
    }),
  );
  const total = 12 + headerBytes.length + payload.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const withoutCrc = Buffer.concat([prelude, headerBytes, payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(withoutCrc), 0);
  return Buffer.concat([withoutCrc, crc]);
}

export function chunkMessage(anthropicEvent: string): Buffer {
  const payload = JSON.stringify({ bytes: Buffer.from(anthropicEvent).toString("base64"), p: "abcdefghij" });
  return encodeEventMessage(
    { ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" },
    Buffer.from(payload),
  );
}

/** The Anthropic events of an SSE fixture, with Bedrock's invocation metrics on message_stop as Bedrock adds them. */
function bedrockEvents(sse: string): string[] {
  return sse
    .split("\n\n")
    .map((e) => /^data: (.*)$/m.exec(e)?.[1])
    .filter((d): d is string => Boolean(d) && !d!.includes('"type":"ping"'))
    .map((d) =>
      d.includes('"type":"message_stop"')
        ? JSON.stringify({
            type: "message_stop",
            "amazon-bedrock-invocationMetrics": {
              inputTokenCount: 14,
              outputTokenCount: 5,
              invocationLatency: 512,
              firstByteLatency: 200,
            },
          })
        : d,
    );
}

export async function startBedrockMock(credentials: {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}): Promise<BedrockMock> {
  const mock: BedrockMock = { url: "", requests: [], refused: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const fail = (status: number, type: string, message: string) => {
        res.writeHead(status, {
          "Content-Type": "application/json",
          "x-amzn-ErrorType": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        });
        res.end(JSON.stringify({ message }));
      };
      const why = verifySigV4(req, body, { ...credentials, service: "bedrock" });
      if (why) {
        mock.refused.push(why);
        return fail(
          403,
          "InvalidSignatureException",
          `The request signature we calculated does not match the signature you provided. (${why})`,
        );
      }
      if (mock.fault) return fail(mock.fault.status, mock.fault.type, mock.fault.message);
      const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(
        new URL(req.url ?? "/", "http://mock").pathname,
      );
      if (req.method !== "POST" || !route) return fail(404, "UnknownOperationException", "not found");
      const request = JSON.parse(body) as {
        anthropic_version?: string;
        model?: string;
        stream?: boolean;
        tools?: unknown[];
      };
      if (request.anthropic_version !== "bedrock-2023-05-31")
        return fail(400, "ValidationException", "anthropic_version: bedrock-2023-05-31 is required");
      if ("model" in request || "stream" in request)
        return fail(400, "ValidationException", "extraneous key [model/stream] is not permitted");
      if (route[2] === "invoke") {
        res.writeHead(200, {
          "Content-Type": "application/json",
          "X-Amzn-Bedrock-Input-Token-Count": "412",
          "X-Amzn-Bedrock-Output-Token-Count": "14",
        });
        return void res.end(anthropicFixture(request.tools ? "message-tool-use.json" : "message-text.json"));
      }
      let messages = bedrockEvents(anthropicFixture(request.tools ? "stream-tool-use.sse" : "stream-text.sse")).map(
        chunkMessage,
      );
      if (mock.streamException) {
        const exception = encodeEventMessage(
          {
            ":exception-type": mock.streamException.type,
            ":content-type": "application/json",
            ":message-type": "exception",
          },
          Buffer.from(JSON.stringify({ message: mock.streamException.message })),
        );
        messages = [messages[0]!, exception];
      }
      res.writeHead(200, {
        "Content-Type": "application/vnd.amazon.eventstream",
        "X-Amzn-Bedrock-Content-Type": "application/json",
      });
      await writeFragmented(res, Buffer.concat(messages), 29);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}
