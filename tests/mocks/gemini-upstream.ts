import { createServer, type Server } from "node:http";
import { readBody } from "./http-helpers";
import { answerGemini, geminiFixture, googleError } from "./google-replies";
import type { RecordedRequest } from "./openai-upstream";

/**
 * A loopback Generative Language API: `/{version}/models/{model}:{method}` and the models list,
 * keyed by `x-goog-api-key` (a key in the URL query is refused: the gateway must never put one
 * there). `fault` answers every call with that status and Google error body.
 */
export type GeminiMock = {
  url: string;
  requests: RecordedRequest[];
  fault?: { status: number; message: string; code: string };
  close: () => Promise<void>;
};

export async function startGeminiMock(apiKey: string): Promise<GeminiMock> {
  const mock: GeminiMock = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const url = new URL(req.url ?? "/", "http://mock");
      if (url.searchParams.has("key"))
        return googleError(res, 400, "the key belongs in x-goog-api-key", "INVALID_ARGUMENT");
      if (req.headers["x-goog-api-key"] !== apiKey) {
        res.writeHead(400, { "Content-Type": "application/json" });
        return void res.end(geminiFixture("error-invalid-key.json"));
      }
      if (mock.fault) return googleError(res, mock.fault.status, mock.fault.message, mock.fault.code);
      if (req.method === "GET" && /^\/v1(beta)?\/models$/.test(url.pathname)) {
        res.writeHead(200, { "Content-Type": "application/json" });
        return void res.end(
          geminiFixture(url.searchParams.get("pageToken") === "page-2" ? "models-page-2.json" : "models.json"),
        );
      }
      const call = /^\/v1(?:beta)?\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
      if (req.method !== "POST" || !call) return googleError(res, 404, "not found", "NOT_FOUND");
      await answerGemini(res, call[2]!, url.searchParams, body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mock;
}
