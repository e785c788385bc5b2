import { createServer, type IncomingMessage, type Server } from "node:http";
import { WebSocketServer } from "ws";

/**
 * A loopback OpenAI Realtime server: `GET /v1/realtime?model=…` upgraded only with the right
 * Bearer key (401 otherwise, as OpenAI refuses the handshake). It greets with session.created
 * and answers each response.create with a short text response ending in response.done, whose
 * usage is what the gateway must bill.
 */
export type RealtimeMock = {
  url: string;
  /** The handshakes it accepted: path, subprotocols offered, headers. */
  handshakes: { path: string; protocols: string[]; headers: IncomingMessage["headers"] }[];
  /** Usage each response.done reports. */
  usage: { input_tokens: number; output_tokens: number };
  /** Client frames received, as text. */
  received: string[];
  close: () => Promise<void>;
};

export async function startRealtimeMock(apiKey: string): Promise<RealtimeMock> {
  const mock: RealtimeMock = {
    url: "",
    handshakes: [],
    usage: { input_tokens: 120, output_tokens: 30 },
    received: [],
    close: async () => undefined,
  };
  const server: Server = createServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has("realtime") ? "realtime" : false),
  });
  server.on("upgrade", (req, socket, head) => {
    if (req.headers.authorization !== `Bearer ${apiKey}` || !(req.url ?? "").startsWith("/v1/realtime?model=")) {
      socket.end(
        'HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}',
      );
      return;
    }
    const protocols = String(req.headers["sec-websocket-protocol"] ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    mock.handshakes.push({ path: req.url ?? "", protocols, headers: req.headers });
    wss.handleUpgrade(req, socket, head, (ws) => {
      let responses = 0;
      ws.send(
        JSON.stringify({
          type: "session.created",
          event_id: "event_1",
          session: { id: "sess_1", model: new URL(req.url!, "http://x").searchParams.get("model") },
        }),
      );
      ws.on("message", (data) => {
        const text = data.toString();
        mock.received.push(text);
        const event = JSON.parse(text) as { type?: string };
        if (event.type !== "response.create") return;
        responses += 1;
        const id = `resp_${responses}`;
        ws.send(
          JSON.stringify({
            type: "response.created",
            event_id: `event_${responses}a`,
            response: { id, status: "in_progress", output: [] },
          }),
        );
        ws.send(
          JSON.stringify({
            type: "response.output_text.delta",
            event_id: `event_${responses}b`,
            response_id: id,
            delta: "Hello",
          }),
        );
        const { input_tokens, output_tokens } = mock.usage;
        ws.send(
          JSON.stringify({
            type: "response.done",
            event_id: `event_${responses}c`,
            response: {
              id,
              status: "completed",
              usage: { total_tokens: input_tokens + output_tokens, input_tokens, output_tokens },
            },
          }),
        );
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () =>
    new Promise((resolve) => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return mock;
}
