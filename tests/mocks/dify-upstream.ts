import { bearerIs, sendJson, sse, startProviderMock, writeFragmented } from "./provider-mock";

/**
 * Dify service API: POST /v1/chat-messages (inputs, query, response_mode blocking|streaming,
 * user). Streaming is SSE whose data carries `event`: message / agent_message text, message_end
 * with metadata.usage, error. A query of "boom" answers with an error event mid-stream.
 */
export function startDifyMock(apiKey: string) {
  return startProviderMock({
    authorized: bearerIs(apiKey),
    unauthorized: { status: 401, body: { code: "unauthorized", message: "Access token is invalid", status: 401 } },
    route: async (req, res) => {
      if (req.method !== "POST" || req.path !== "/v1/chat-messages")
        return sendJson(res, 404, { code: "not_found", message: "Not Found", status: 404 });
      if (typeof req.json.query !== "string" || !req.json.user)
        return sendJson(res, 400, { code: "invalid_param", message: "query is required", status: 400 });
      const usage = {
        prompt_tokens: 31,
        completion_tokens: 9,
        total_tokens: 40,
        total_price: "0.0001",
        currency: "USD",
      };
      if (req.json.response_mode === "streaming") {
        const base = { conversation_id: "conv-1", message_id: "msg-1", created_at: 1_700_000_000, task_id: "task-1" };
        if (req.json.query === "boom") {
          return writeFragmented(
            res,
            "text/event-stream",
            sse([
              { event: "message", answer: "Par", ...base },
              {
                event: "error",
                status: 400,
                code: "completion_request_error",
                message: "Model quota exceeded",
                ...base,
              },
            ]),
          );
        }
        return writeFragmented(
          res,
          "text/event-stream",
          sse([
            { event: "workflow_started", ...base, data: {} },
            { event: "message", answer: "Dify ", ...base },
            { event: "agent_thought", thought: "thinking", ...base },
            { event: "agent_message", answer: "svarar", ...base },
            { event: "ping" },
            { event: "message_end", ...base, metadata: { usage } },
          ]),
        );
      }
      return sendJson(res, 200, {
        event: "message",
        task_id: "task-1",
        id: "msg-1",
        message_id: "msg-1",
        conversation_id: "conv-1",
        mode: "chat",
        answer: "Dify svarar",
        metadata: { usage },
        created_at: 1_700_000_000,
      });
    },
  });
}
