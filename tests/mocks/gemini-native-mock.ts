import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { RecordedRequest } from "./openai-upstream";

/**
 * A minimal loopback Gemini API for the native pass-through (decision 026): generateContent and
 * streamGenerateContent?alt=sse under /v1beta/models/{model}, the key checked in x-goog-api-key
 * (a wrong or missing key gets Google's 400 API_KEY_INVALID, as the real API answers). Streams
 * are written with every event split across two writes, so the gateway's reads are fragmented.
 */
export type GeminiNativeMock = {
  url: string;
  requests: RecordedRequest[];
  /** Answer every call with this status and Google error body. */
  failWith?: number;
  close: () => Promise<void>;
};

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/upstream/gemini-native/${name}`, import.meta.url), "utf8");

function googleError(code: number, status: string, message: string): string {
  return JSON.stringify({ error: { code, message, status } });
}

export async function startGeminiNativeMock(apiKey: string): Promise<GeminiNativeMock> {
  const mock: GeminiNativeMock = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", async () => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const reply = (status: number, text: string) => {
        res.writeHead(status, { "Content-Type": "application/json; charset=UTF-8" });
        res.end(text);
      };
      if (req.headers["x-goog-api-key"] !== apiKey)
        return reply(400, googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."));
      if (mock.failWith)
        return reply(
          mock.failWith,
          googleError(mock.failWith, mock.failWith >= 500 ? "INTERNAL" : "INVALID_ARGUMENT", "mock failure"),
        );
      const match = /^\/v1beta\/models\/([^/:?]+):(generateContent|streamGenerateContent)(\?alt=sse)?$/.exec(
        req.url ?? "",
      );
      if (req.method !== "POST" || !match) return reply(404, googleError(404, "NOT_FOUND", `no route ${req.url}`));
      try {
        const request = JSON.parse(body) as { contents?: unknown };
        if (!Array.isArray(request.contents))
          return reply(400, googleError(400, "INVALID_ARGUMENT", "contents is required"));
      } catch {
        return reply(400, googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received."));
      }
      if (match[2] === "generateContent") return reply(200, fixture("generate-content.json"));
      if (!match[3]) return reply(400, googleError(400, "INVALID_ARGUMENT", "this mock streams only with alt=sse"));
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      for (const event of fixture("stream.sse")
        .split("\n\n")
        .filter((e) => e.trim())) {
        const frame = `${event}\r\n\r\n`;
        const cut = Math.floor(frame.length / 2);
        res.write(frame.slice(0, cut));
        await new Promise((r) => setTimeout(r, 5));
        res.write(frame.slice(cut));
        await new Promise((r) => setTimeout(r, 5));
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return mock;
}
