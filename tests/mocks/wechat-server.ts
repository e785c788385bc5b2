import { createServer, type IncomingMessage } from "node:http";

/**
 * A loopback stand-in for the WeChat login server the reference talks to
 * (songquanpeng/wechat-server): `GET /api/wechat/user?code=` with the raw token in
 * Authorization answers `{success, message, data: "<openid>"}`; an unknown or used code is still
 * `success: true` with empty data; a missing code is `无效的参数`; a wrong token is refused.
 */
export type MockWeChatServer = {
  url: string;
  /** Codes the official account has handed out: code → openid (each works once). */
  codes: Map<string, string>;
  calls: { path: string; authorization: string | undefined }[];
  close: () => Promise<void>;
};

export async function startWeChatServerMock(token: string): Promise<MockWeChatServer> {
  const codes = new Map<string, string>();
  const calls: MockWeChatServer["calls"] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", "http://mock");
    calls.push({ path: url.pathname + url.search, authorization: req.headers.authorization });
    const reply = (body: unknown) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== "/api/wechat/user") {
      res.writeHead(404).end();
      return;
    }
    if (req.headers.authorization !== token) return reply({ success: false, message: "无权进行此操作，token 无效" });
    const code = url.searchParams.get("code") ?? "";
    if (!code) return reply({ success: false, message: "无效的参数" });
    const openId = codes.get(code) ?? "";
    codes.delete(code);
    reply({ success: true, message: "", data: openId });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    codes,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
