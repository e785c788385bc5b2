import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { readBody } from "./http-helpers";
import type { RecordedRequest } from "./openai-upstream";

/**
 * The shared frame of the provider mocks (cohere, dify, ollama-native, minimax, jina,
 * cloudflare): a loopback server that records every request, refuses a wrong credential in the
 * provider's own error shape, and can be told to fail the next calls (`failWith`).
 */
export type ProviderMock = {
  url: string;
  requests: RecordedRequest[];
  /** Answer every call with this status and body (the provider's error shape) until cleared. */
  failWith?: { status: number; body: unknown };
  close: () => Promise<void>;
};

export type MockRoute = (
  req: RecordedRequest & { json: Record<string, any> },
  res: ServerResponse,
  mock: ProviderMock,
) => void | Promise<void>;

export async function startProviderMock(options: {
  authorized: (req: IncomingMessage) => boolean;
  unauthorized: { status: number; body: unknown };
  route: MockRoute;
}): Promise<ProviderMock> {
  const mock: ProviderMock = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
    mock.requests.push(recorded);
    if (!options.authorized(req)) return sendJson(res, options.unauthorized.status, options.unauthorized.body);
    if (mock.failWith) return sendJson(res, mock.failWith.status, mock.failWith.body);
    let json: Record<string, any> = {};
    try {
      json = body ? (JSON.parse(body) as Record<string, any>) : {};
    } catch {}
    await options.route({ ...recorded, json }, res, mock);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

export const bearerIs = (key: string) => (req: IncomingMessage) => req.headers.authorization === `Bearer ${key}`;

/**
 * Writes a stream body in small pieces with a pause between them, so the gateway's reads split
 * events (and lines) mid-way — the decoders must put them back together.
 */
export async function writeFragmented(
  res: ServerResponse,
  contentType: string,
  text: string,
  pieceBytes = 9,
): Promise<void> {
  res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-cache" });
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length; at += pieceBytes) {
    res.write(bytes.subarray(at, at + pieceBytes));
    await new Promise((r) => setTimeout(r, 1));
  }
  res.end();
}

export const ndjson = (lines: unknown[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join("");
export const sse = (events: unknown[], done = false) =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");
