import { bearerIs, sendJson, sse, startProviderMock, writeFragmented } from "./provider-mock";

/**
 * Cloudflare Workers AI's OpenAI-compatible endpoints under one account:
 * /client/v4/accounts/{account}/ai/v1/chat/completions and …/embeddings. Another account id or
 * token gets the Cloudflare API envelope's error.
 */
export function startCloudflareMock(token: string, account: string) {
  return startProviderMock({
    authorized: bearerIs(token),
    unauthorized: {
      status: 401,
      body: { success: false, errors: [{ code: 10000, message: "Authentication error" }], messages: [], result: null },
    },
    route: async (req, res) => {
      const prefix = `/client/v4/accounts/${account}/ai/v1`;
      if (!req.path.startsWith(prefix))
        return sendJson(res, 404, {
          success: false,
          errors: [
            {
              code: 7003,
              message: "Could not route to /client/v4/accounts/…, perhaps your object identifier is invalid?",
            },
          ],
          result: null,
        });
      const usage = { prompt_tokens: 14, completion_tokens: 5, total_tokens: 19 };
      if (req.path === `${prefix}/embeddings`)
        return sendJson(res, 200, {
          object: "list",
          data: [{ object: "embedding", index: 0, embedding: [0.25, 0.75] }],
          model: req.json.model,
          usage: { prompt_tokens: 4, total_tokens: 4 },
        });
      if (req.path !== `${prefix}/chat/completions`)
        return sendJson(res, 404, {
          success: false,
          errors: [{ code: 7000, message: "No route for that URI" }],
          result: null,
        });
      const id = "id-1700000000";
      if (req.json.stream) {
        const chunk = (delta: object, finish: string | null) => ({
          id,
          object: "chat.completion.chunk",
          created: 1_700_000_000,
          model: req.json.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
        const events: object[] = [
          chunk({ role: "assistant", content: "Workers " }, null),
          chunk({ content: "AI" }, null),
          chunk({}, "stop"),
        ];
        if (req.json.stream_options?.include_usage)
          events.push({
            id,
            object: "chat.completion.chunk",
            created: 1_700_000_000,
            model: req.json.model,
            choices: [],
            usage,
          });
        return writeFragmented(res, "text/event-stream", sse(events, true));
      }
      return sendJson(res, 200, {
        id,
        object: "chat.completion",
        created: 1_700_000_000,
        model: req.json.model,
        choices: [{ index: 0, message: { role: "assistant", content: "Workers AI" }, finish_reason: "stop" }],
        usage,
      });
    },
  });
}
