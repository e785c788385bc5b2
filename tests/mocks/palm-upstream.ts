import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { readBody } from "./http-helpers";
import { writeFragmented } from "./fragmented-writer";
import { googleError } from "./google-replies";
import type { RecordedRequest } from "./openai-upstream";

/**
 * A loopback PaLM 2 API: `POST /v1beta2/models/chat-bison-001:generateMessage` keyed by
 * x-goog-api-key. PaLM does not stream, so every reply is one JSON document (written in pieces).
 */
export type PalmMock = {
  url: string;
  requests: RecordedRequest[];
  fault?: { status: number; message: string; code: string };
  close: () => Promise<void>;
};

const fixture = (name: string) => readFileSync(new URL(`../fixtures/upstream/palm/${name}`, import.meta.url), "utf8");

export async function startPalmMock(apiKey: string): Promise<PalmMock> {
  const mock: PalmMock = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      if (req.headers["x-goog-api-key"] !== apiKey)
        return googleError(res, 400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT");
      if (mock.fault) return googleError(res, mock.fault.status, mock.fault.message, mock.fault.code);
      if (req.method !== "POST" || req.url !== "/v1beta2/models/chat-bison-001:generateMessage")
        return googleError(res, 404, "not found", "NOT_FOUND");
      const request = JSON.parse(body) as { prompt?: { messages?: { author?: string; content?: string }[] } };
      if (!Array.isArray(request.prompt?.messages) || request.prompt.messages.length === 0)
        return googleError(res, 400, "prompt.messages is required", "INVALID_ARGUMENT");
      res.writeHead(200, { "Content-Type": "application/json" });
      await writeFragmented(
        res,
        fixture(body.includes("forbidden topic") ? "message-filtered.json" : "message.json"),
        23,
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}
