import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { listen, providerFixture } from "./loopback";

/**
 * A loopback iFlytek Spark WebSocket API. The handshake's signed URL is verified as iFlytek does
 * (the HMAC recomputed with the APISecret over host, date and request line; the date within
 * 300 s): a wrong one is refused with 401 `{"message":"HMAC signature does not match"}` before
 * the upgrade. The request frame's app_id and domain are checked; then the fixture's frames are
 * sent, or `errorFrame` as the first frame.
 */
export type SparkMock = {
  url: string;
  /** The request line path and the request frame of each accepted connection. */
  calls: { path: string; frame: Record<string, any> }[];
  handshakeRefusals: number;
  errorFrame?: { code: number; message: string };
  /** Drop the connection (no close frame) after sending this many reply frames. */
  dropAfterFrames?: number;
  /** Accept the connection and the request frame, then never answer. */
  silent?: boolean;
  /** Connections closed by the client (the gateway gave up on them). */
  closedByClient: number;
  close: () => Promise<void>;
};

const DOMAINS: Record<string, string> = {
  "v1.1": "general",
  "v2.1": "generalv2",
  "v3.1": "generalv3",
  "v3.5": "generalv3.5",
  "v4.0": "4.0Ultra",
};

function refuse(socket: Duplex, status: number, message: string) {
  const body = JSON.stringify({ message });
  const reason = status === 401 ? "Unauthorized" : "Forbidden";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function checkHandshake(
  req: IncomingMessage,
  apiKey: string,
  apiSecret: string,
): { status: number; message: string } | undefined {
  const url = new URL(req.url ?? "/", "http://mock");
  const authorization = url.searchParams.get("authorization");
  const date = url.searchParams.get("date");
  const host = url.searchParams.get("host");
  if (!authorization || !date || !host) return { status: 401, message: "Unauthorized" };
  const when = Date.parse(date);
  if (!Number.isFinite(when) || Math.abs(Date.now() - when) > 300_000)
    return {
      status: 403,
      message: "HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication",
    };
  if (host !== req.headers.host) return { status: 401, message: "HMAC signature does not match" };
  const fields =
    /^api_key="([^"]*)", algorithm="hmac-sha256", headers="host date request-line", signature="([^"]*)"$/.exec(
      Buffer.from(authorization, "base64").toString("utf8"),
    );
  if (!fields) return { status: 401, message: "HMAC signature does not match" };
  if (fields[1] !== apiKey) return { status: 401, message: "Unauthorized" };
  const expected = createHmac("sha256", apiSecret)
    .update(`host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`)
    .digest();
  const given = Buffer.from(fields[2]!, "base64");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 401, message: "HMAC signature does not match" };
  return undefined;
}

export async function startSparkMock(appId: string, apiSecret: string, apiKey: string): Promise<SparkMock> {
  const mock: SparkMock = { url: "", calls: [], handshakeRefusals: 0, closedByClient: 0, close: async () => undefined };
  const server = createServer((_req, res) => {
    res.writeHead(426, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ message: "Upgrade Required" }));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const refusal = checkHandshake(req, apiKey, apiSecret);
    if (refusal) {
      mock.handshakeRefusals += 1;
      refuse(socket, refusal.status, refusal.message);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, new URL(req.url ?? "/", "http://mock").pathname));
  });
  const serve = (ws: WebSocket, path: string) => {
    let finished = false;
    ws.on("close", () => {
      if (!finished) mock.closedByClient += 1;
    });
    ws.once("message", (data) => {
      const frame = JSON.parse(String(data)) as Record<string, any>;
      mock.calls.push({ path, frame });
      const sid = "cht000b41d5@dx193f1d3c7a5b8f2540";
      const version = /^\/(v\d+\.\d+)\/chat$/.exec(path)?.[1] ?? "";
      const fail = (code: number, message: string) => {
        finished = true;
        ws.send(JSON.stringify({ header: { code, message, sid, status: 2 } }));
        ws.close();
      };
      if (frame.header?.app_id !== appId) return fail(10313, "appid和apikey不匹配");
      if (frame.parameter?.chat?.domain !== DOMAINS[version]) return fail(10163, "domain 参数错误");
      if (mock.errorFrame) return fail(mock.errorFrame.code, mock.errorFrame.message);
      if (mock.silent) return;
      const frames = JSON.parse(providerFixture("spark", "frames.json")) as unknown[];
      let index = 0;
      const next = () => {
        if (mock.dropAfterFrames !== undefined && index >= mock.dropAfterFrames) {
          ws.terminate();
          return;
        }
        if (index >= frames.length) {
          finished = true;
          ws.close();
          return;
        }
        ws.send(JSON.stringify(frames[index++]));
        setTimeout(next, 3);
      };
      next();
    });
  };
  const listening = await listen(server);
  // Saved as a channel's base URL, which must be http(s):// (the adapter speaks ws:// to it).
  mock.url = listening.url;
  mock.close = async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await listening.close();
  };
  return mock;
}
