import { bearerIs, sendJson, sse, startProviderMock, writeFragmented } from "./provider-mock";

/**
 * MiniMax chatcompletion_v2: OpenAI-like, but failures come as HTTP 200 with
 * `base_resp.status_code` ≠ 0 (1004 auth, 1008 balance…), and the stream's last event repeats the
 * whole answer as `message` with the usage.
 */
export function startMinimaxMock(apiKey: string) {
  return startProviderMock({
    authorized: bearerIs(apiKey),
    unauthorized: {
      status: 200,
      body: {
        id: "",
        choices: null,
        base_resp: {
          status_code: 1004,
          status_msg: "login fail: Please carry the API secret key in the 'Authorization' field of the request header",
        },
      },
    },
    route: async (req, res) => {
      if (req.method !== "POST" || req.path !== "/v1/text/chatcompletion_v2")
        return sendJson(res, 404, { base_resp: { status_code: 1001, status_msg: "not found" } });
      const ok = { status_code: 0, status_msg: "" };
      const usage = { total_tokens: 29, prompt_tokens: 21, completion_tokens: 8 };
      if (req.json.stream) {
        return writeFragmented(
          res,
          "text/event-stream",
          sse([
            {
              id: "mm-1",
              choices: [{ index: 0, delta: { role: "assistant", content: "MiniMax " } }],
              created: 1_700_000_000,
              model: req.json.model,
              object: "chat.completion.chunk",
            },
            {
              id: "mm-1",
              choices: [{ index: 0, delta: { content: "hälsar" } }],
              created: 1_700_000_000,
              model: req.json.model,
              object: "chat.completion.chunk",
            },
            {
              id: "mm-1",
              choices: [{ finish_reason: "stop", index: 0, message: { role: "assistant", content: "MiniMax hälsar" } }],
              created: 1_700_000_000,
              model: req.json.model,
              object: "chat.completion",
              usage,
              base_resp: ok,
            },
          ]),
        );
      }
      return sendJson(res, 200, {
        id: "mm-1",
        choices: [{ finish_reason: "stop", index: 0, message: { role: "assistant", content: "MiniMax hälsar" } }],
        created: 1_700_000_000,
        model: req.json.model,
        object: "chat.completion",
        usage,
        base_resp: ok,
      });
    },
  });
}
