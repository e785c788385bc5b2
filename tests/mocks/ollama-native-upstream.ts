import { ndjson, sendJson, startProviderMock, writeFragmented } from "./provider-mock";

/**
 * Ollama's native API: POST /api/chat (NDJSON stream, the last line done:true with
 * prompt_eval_count / eval_count), POST /api/embed, GET /api/tags. Ollama checks no key; the
 * mock accepts any. A model named "missing" gets Ollama's `{"error":"model … not found"}` 404.
 */
export function startOllamaNativeMock() {
  return startProviderMock({
    authorized: () => true,
    unauthorized: { status: 401, body: {} },
    route: async (req, res) => {
      if (req.method === "GET" && req.path === "/api/tags") {
        return sendJson(res, 200, {
          models: [
            { name: "llama3.2:latest", model: "llama3.2:latest", size: 2019393189, details: { family: "llama" } },
            { name: "qwen2.5:7b", model: "qwen2.5:7b", size: 1, details: {} },
          ],
        });
      }
      if (req.json.model === "missing")
        return sendJson(res, 404, { error: `model "missing" not found, try pulling it first` });
      if (req.method === "POST" && req.path === "/api/embed") {
        const inputs = Array.isArray(req.json.input) ? req.json.input : [req.json.input];
        return sendJson(res, 200, {
          model: req.json.model,
          embeddings: inputs.map((_: unknown, i: number) => [0.1 + i, 0.2, 0.3]),
          total_duration: 14143917,
          load_duration: 1019500,
          prompt_eval_count: 8,
        });
      }
      if (req.method !== "POST" || req.path !== "/api/chat") return sendJson(res, 404, { error: "404 page not found" });
      const at = "2025-01-01T12:00:00.1Z";
      const final = {
        model: req.json.model,
        created_at: at,
        message: { role: "assistant", content: "" },
        done: true,
        done_reason: "stop",
        total_duration: 812000000,
        load_duration: 2100000,
        prompt_eval_count: 26,
        prompt_eval_duration: 120000000,
        eval_count: 3,
        eval_duration: 60000000,
      };
      if (req.json.stream !== false) {
        return writeFragmented(
          res,
          "application/x-ndjson",
          ndjson([
            { model: req.json.model, created_at: at, message: { role: "assistant", content: "Hallå" }, done: false },
            { model: req.json.model, created_at: at, message: { role: "assistant", content: " där!" }, done: false },
            final,
          ]),
        );
      }
      return sendJson(res, 200, { ...final, message: { role: "assistant", content: "Hallå där!" } });
    },
  });
}
