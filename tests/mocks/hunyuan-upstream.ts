import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { readBody } from "./http-helpers";
import {
  answerFault,
  listen,
  providerFixture,
  sendJson,
  writeFragmented,
  type ProviderFault,
  type RecordedRequest,
} from "./loopback";

/**
 * A loopback Tencent Cloud API for hunyuan: the TC3-HMAC-SHA256 signature is recomputed from the
 * request as received (host and content-type headers, body, X-TC-Timestamp) with its own copy of
 * the secret; a mismatch or an unknown SecretId is answered as Tencent does, status 200 with
 * Response.Error AuthFailure.*.
 */
export type HunyuanMock = {
  url: string;
  requests: RecordedRequest[];
  fault?: ProviderFault;
  close: () => Promise<void>;
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();

function checkSignature(
  headers: IncomingHttpHeaders,
  body: string,
  secrets: Record<string, string>,
): { code: string; message: string } | undefined {
  const match =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(
      String(headers.authorization ?? ""),
    );
  if (!match) return { code: "AuthFailure.InvalidAuthorization", message: "Authorization 头部格式错误" };
  const [, secretId, date, service, signature] = match;
  const secretKey = secrets[secretId!];
  if (!secretKey)
    return {
      code: "AuthFailure.SecretIdNotFound",
      message: "The SecretId is not found, please ensure that your SecretId is correct.",
    };
  const timestamp = Number(headers["x-tc-timestamp"]);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300)
    return { code: "AuthFailure.SignatureExpire", message: "Signature expired." };
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date)
    return { code: "AuthFailure.SignatureFailure", message: "Credential date does not match X-TC-Timestamp." };
  const canonical = [
    "POST",
    "/",
    "",
    `content-type:${headers["content-type"]}\nhost:${headers.host}\n`,
    "content-type;host",
    sha256(body),
  ].join("\n");
  const toSign = ["TC3-HMAC-SHA256", String(timestamp), `${date}/${service}/tc3_request`, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(`TC3${secretKey}`, date!), service!), "tc3_request");
  if (createHmac("sha256", key).update(toSign).digest("hex") !== signature)
    return {
      code: "AuthFailure.SignatureFailure",
      message: "The provided credentials could not be validated. Please check your signature is correct.",
    };
  return undefined;
}

export async function startHunyuanMock(secrets: Record<string, string>): Promise<HunyuanMock> {
  const mock: HunyuanMock = { url: "", requests: [], close: async () => undefined };
  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const requestId = "a6a51d6a-3a0c-4b8f-8f4c-7a2c1b0e9d11";
      if (req.headers["x-tc-action"] !== "ChatCompletions" || req.headers["x-tc-version"] !== "2023-09-01") {
        return sendJson(res, 200, {
          Response: { Error: { Code: "InvalidAction", Message: "接口不存在" }, RequestId: requestId },
        });
      }
      const refused = checkSignature(req.headers, body, secrets);
      if (refused)
        return sendJson(res, 200, {
          Response: { Error: { Code: refused.code, Message: refused.message }, RequestId: requestId },
        });
      if (answerFault(res, mock.fault)) return;
      const request = JSON.parse(body || "{}") as { Stream?: boolean };
      if (request.Stream) {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        await writeFragmented(res, providerFixture("hunyuan", "stream.sse"));
        return;
      }
      sendJson(res, 200, providerFixture("hunyuan", "chat.json"));
    });
  });
  const listening = await listen(server);
  mock.url = listening.url;
  mock.close = listening.close;
  return mock;
}
