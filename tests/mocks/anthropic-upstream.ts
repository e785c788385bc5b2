import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { RecordedRequest } from "./openai-upstream";

/** A loopback Anthropic Messages API answering with recorded-style fixtures (JSON and SSE). */
export type AnthropicMock = { url: string; requests: RecordedRequest[]; close: () => Promise<void> };

const fixture = (name: string) => readFileSync(new URL(`../fixtures/upstream/anthropic/${name}`, import.meta.url), "utf8");

export async function startAnthropicMock(apiKey: string): Promise<AnthropicMock> {
  const mock: AnthropicMock = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      if (req.headers["x-api-key"] !== apiKey || !req.headers["anthropic-version"]) {
        res.writeHead(401, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
        return;
      }
      const request = JSON.parse(body || "{}") as { stream?: boolean; tools?: unknown[] };
      if (request.stream) {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.end(fixture(request.tools ? "stream-tool-use.sse" : "stream-text.sse"));
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(fixture(request.tools ? "message-tool-use.json" : "message-text.json"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}
