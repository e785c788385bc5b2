import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { RecordedRequest } from "./openai-upstream";

/** A loopback Anthropic Messages API answering with recorded-style fixtures (JSON and SSE). */
export type AnthropicMock = {
  url: string;
  requests: RecordedRequest[];
  /** Fields laid over the replies' usage (a message's `usage`, a stream's message_start and message_delta usage). */
  usage?: Record<string, unknown>;
  /** Write streams in small pieces a few milliseconds apart (events split across reads). */
  fragment?: boolean;
  /** Answer every call with this status and an Anthropic error body. */
  failWith?: number;
  /** Headers sent with every reply (Anthropic's request-id, its rate limits…). */
  replyHeaders?: Record<string, string>;
  close: () => Promise<void>;
};

function withUsage(json: string, usage: Record<string, unknown> | undefined): string {
  if (!usage) return json;
  const value = JSON.parse(json) as { usage?: Record<string, unknown>; message?: { usage?: Record<string, unknown> } };
  if (value.message?.usage) value.message.usage = { ...value.message.usage, ...usage };
  else if (value.usage) value.usage = { ...value.usage, ...usage };
  return JSON.stringify(value);
}

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/upstream/anthropic/${name}`, import.meta.url), "utf8");

export async function startAnthropicMock(apiKey: string): Promise<AnthropicMock> {
  const mock: AnthropicMock = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      for (const [name, value] of Object.entries(mock.replyHeaders ?? {})) res.setHeader(name, value);
      if (req.headers["x-api-key"] !== apiKey || !req.headers["anthropic-version"]) {
        res.writeHead(401, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }),
        );
        return;
      }
      if (mock.failWith) {
        res.writeHead(mock.failWith, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "mock failure" } }));
        return;
      }
      const request = JSON.parse(body || "{}") as { stream?: boolean; tools?: unknown[] };
      if (request.stream) {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        const sse = fixture(request.tools ? "stream-tool-use.sse" : "stream-text.sse").replace(
          /^data: (.*"usage".*)$/gm,
          (_line, json: string) => `data: ${withUsage(json, mock.usage)}`,
        );
        if (!mock.fragment) return void res.end(sse);
        void (async () => {
          for (let at = 0; at < sse.length; at += 37) {
            res.write(sse.slice(at, at + 37));
            await new Promise((r) => setTimeout(r, 2));
          }
          res.end();
        })();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(withUsage(fixture(request.tools ? "message-tool-use.json" : "message-text.json"), mock.usage));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}
