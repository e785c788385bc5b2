import { bearerIs, ndjson, sendJson, startProviderMock, writeFragmented } from "./provider-mock";

/**
 * Cohere API v1: POST /v1/chat (message, chat_history, preamble; stream = NDJSON events
 * stream-start / text-generation / stream-end with response.meta.billed_units) and POST
 * /v1/rerank. A wrong key gets Cohere's 401 `{"message":"invalid api token"}`.
 */
export function startCohereMock(apiKey: string) {
  return startProviderMock({
    authorized: bearerIs(apiKey),
    unauthorized: { status: 401, body: { message: "invalid api token" } },
    route: async (req, res) => {
      if (req.method === "POST" && req.path === "/v1/rerank") {
        const docs: unknown[] = req.json.documents ?? [];
        const results = docs
          .map((_d, index) => ({ index, relevance_score: Math.round((0.9 - index * 0.3) * 1000) / 1000 }))
          .slice(0, req.json.top_n ?? docs.length);
        return sendJson(res, 200, {
          id: "rr-1",
          results,
          meta: { api_version: { version: "1" }, billed_units: { search_units: 1 } },
        });
      }
      if (req.method !== "POST" || req.path !== "/v1/chat") return sendJson(res, 404, { message: "Not Found" });
      if (typeof req.json.message !== "string" || !req.json.message)
        return sendJson(res, 400, { message: "invalid request: message must be a non-empty string" });
      const meta = {
        api_version: { version: "1" },
        billed_units: { input_tokens: 17, output_tokens: 6 },
        tokens: { input_tokens: 83, output_tokens: 6 },
      };
      if (req.json.stream) {
        return writeFragmented(
          res,
          "application/stream+json",
          ndjson([
            { is_finished: false, event_type: "stream-start", generation_id: "gen-1" },
            { is_finished: false, event_type: "text-generation", text: "Hej " },
            { is_finished: false, event_type: "text-generation", text: "från Cohere" },
            {
              is_finished: true,
              event_type: "stream-end",
              finish_reason: "COMPLETE",
              response: { response_id: "resp-1", text: "Hej från Cohere", generation_id: "gen-1", meta },
            },
          ]),
        );
      }
      return sendJson(res, 200, {
        response_id: "resp-1",
        text: "Hej från Cohere",
        generation_id: "gen-1",
        chat_history: [],
        finish_reason: "COMPLETE",
        meta,
      });
    },
  });
}
