import { createServer } from "node:http";
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
 * A loopback Baidu Qianfan: the OAuth endpoint issues access tokens for its APIKey/SecretKey
 * pairs (answering 401 invalid_client otherwise), and the wenxinworkshop endpoints accept only a
 * token it issued and has not revoked (error_code 110 otherwise, with status 200 as Baidu does).
 */
export type BaiduMock = {
  url: string;
  requests: RecordedRequest[];
  /** Token exchanges performed (successful ones). */
  exchanges: number;
  fault?: ProviderFault;
  /** Invalidates every issued token (Baidu rotated them): the next chat call gets error_code 110. */
  revokeTokens: () => void;
  close: () => Promise<void>;
};

export async function startBaiduMock(keys: Record<string, string>): Promise<BaiduMock> {
  const valid = new Set<string>();
  let counter = 0;
  const mock: BaiduMock = {
    url: "",
    requests: [],
    exchanges: 0,
    revokeTokens: () => valid.clear(),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const url = new URL(req.url ?? "/", "http://mock");
      if (url.pathname === "/oauth/2.0/token") {
        if (req.method !== "POST" || url.searchParams.get("grant_type") !== "client_credentials")
          return sendJson(res, 400, { error: "unsupported_grant_type", error_description: "grant type not supported" });
        const secret = keys[url.searchParams.get("client_id") ?? ""];
        if (secret === undefined)
          return sendJson(res, 401, { error: "invalid_client", error_description: "unknown client id" });
        if (url.searchParams.get("client_secret") !== secret)
          return sendJson(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
        const token = `24.${(counter += 1)}.2592000.${Date.now()}`;
        valid.add(token);
        mock.exchanges += 1;
        return sendJson(res, 200, {
          refresh_token: "25.r",
          expires_in: 2592000,
          scope: "public wenxinworkshop_mgr",
          session_key: "s",
          access_token: token,
          session_secret: "x",
        });
      }
      if (!url.pathname.startsWith("/rpc/2.0/ai_custom/v1/wenxinworkshop/"))
        return sendJson(res, 404, { error_code: 3, error_msg: "Unsupported openapi method" });
      const token = url.searchParams.get("access_token") ?? "";
      if (!valid.has(token))
        return sendJson(res, 200, { error_code: 110, error_msg: "Access token invalid or no longer valid" });
      if (answerFault(res, mock.fault)) return;
      if (url.pathname.includes("/embeddings/")) return sendJson(res, 200, providerFixture("baidu", "embeddings.json"));
      const request = JSON.parse(body || "{}") as { stream?: boolean };
      if (request.stream) {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        await writeFragmented(res, providerFixture("baidu", "stream.sse"));
        return;
      }
      sendJson(res, 200, providerFixture("baidu", "chat.json"));
    });
  });
  const listening = await listen(server);
  mock.url = listening.url;
  mock.close = listening.close;
  return mock;
}
