import { createHmac, timingSafeEqual } from "node:crypto";
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
 * A loopback Zhipu open platform (v3 model-api and v4): every call must carry a JWT that verifies
 * with HS256 under the secret of the key id it names (header sign_type SIGN, exp in ms not past).
 * A bad token is refused as Zhipu does: v3 with `{code:1002, success:false}` under status 200,
 * v4 with status 401 and `{error:{code:"1002"}}`.
 */
export type ZhipuMock = { url: string; requests: RecordedRequest[]; fault?: ProviderFault; close: () => Promise<void> };

export function verifyZhipuJwt(token: string, keys: Record<string, string>): string | undefined {
  const [header, payload, signature, ...rest] = token.split(".");
  if (!header || !payload || !signature || rest.length) return "malformed token";
  try {
    const head = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg?: string; sign_type?: string };
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      api_key?: string;
      exp?: number;
      timestamp?: number;
    };
    if (head.alg !== "HS256" || head.sign_type !== "SIGN") return "bad header";
    const secret = claims.api_key ? keys[claims.api_key] : undefined;
    if (!secret) return "unknown api_key";
    const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad signature";
    if (typeof claims.exp !== "number" || claims.exp < Date.now() || typeof claims.timestamp !== "number")
      return "expired";
    return undefined;
  } catch {
    return "malformed token";
  }
}

function tokenOf(headers: IncomingHttpHeaders, bearer: boolean): string {
  const value = headers.authorization ?? "";
  if (!bearer) return value;
  return value.startsWith("Bearer ") ? value.slice(7) : "";
}

export async function startZhipuMock(keys: Record<string, string>): Promise<ZhipuMock> {
  const mock: ZhipuMock = { url: "", requests: [], close: async () => undefined };
  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const path = req.url ?? "";
      const v3 = /^\/api\/paas\/v3\/model-api\/[^/]+\/(invoke|sse-invoke)$/.exec(path);
      if (v3) {
        if (verifyZhipuJwt(tokenOf(req.headers, false), keys))
          return sendJson(res, 200, {
            code: 1002,
            msg: "Authorization Token非法，请确认Authorization Token正确传递。",
            success: false,
          });
        if (answerFault(res, mock.fault)) return;
        if (v3[1] === "sse-invoke") {
          res.writeHead(200, { "Content-Type": "text/event-stream;charset=UTF-8" });
          await writeFragmented(res, providerFixture("zhipu", "v3-stream.sse"));
          return;
        }
        return sendJson(res, 200, providerFixture("zhipu", "v3-invoke.json"));
      }
      if (path === "/api/paas/v4/chat/completions" || path === "/api/paas/v4/embeddings") {
        if (verifyZhipuJwt(tokenOf(req.headers, true), keys))
          return sendJson(res, 401, {
            error: { code: "1002", message: "Authorization Token非法，请确认Authorization Token正确传递。" },
          });
        if (answerFault(res, mock.fault)) return;
        if (path.endsWith("embeddings")) return sendJson(res, 200, providerFixture("zhipu", "v4-embeddings.json"));
        const request = JSON.parse(body || "{}") as { stream?: boolean };
        if (request.stream) {
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          await writeFragmented(res, providerFixture("zhipu", "v4-stream.sse"));
          return;
        }
        return sendJson(res, 200, providerFixture("zhipu", "v4-chat.json"));
      }
      sendJson(res, 404, { error: { code: "404", message: "not found" } });
    });
  });
  const listening = await listen(server);
  mock.url = listening.url;
  mock.close = listening.close;
  return mock;
}
