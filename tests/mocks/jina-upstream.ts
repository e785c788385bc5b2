import { bearerIs, sendJson, startProviderMock } from "./provider-mock";

/** Jina: POST /v1/embeddings (OpenAI shape) and POST /v1/rerank ({model, query, documents, top_n}); errors `{"detail":…}`. */
export function startJinaMock(apiKey: string) {
  return startProviderMock({
    authorized: bearerIs(apiKey),
    unauthorized: { status: 401, body: { detail: "Invalid API key" } },
    route: async (req, res) => {
      if (req.method === "POST" && req.path === "/v1/embeddings") {
        const inputs = Array.isArray(req.json.input) ? req.json.input : [req.json.input];
        return sendJson(res, 200, {
          model: req.json.model,
          object: "list",
          usage: { total_tokens: 12, prompt_tokens: 12 },
          data: inputs.map((_: unknown, index: number) => ({ object: "embedding", index, embedding: [0.5, -0.5] })),
        });
      }
      if (req.method === "POST" && req.path === "/v1/rerank") {
        const docs: string[] = req.json.documents ?? [];
        const results = docs
          .map((text, index) => ({ index, document: { text }, relevance_score: 1 / (index + 2) }))
          .slice(0, req.json.top_n ?? docs.length);
        return sendJson(res, 200, { model: req.json.model, usage: { total_tokens: 35 }, results });
      }
      return sendJson(res, 404, { detail: "Not Found" });
    },
  });
}
