import { createServer } from "node:http";
import { readBody } from "./http-helpers";
import {
  answerFault,
  listen,
  providerFixture,
  sendJson,
  writeFragmented,
  type ProviderFault,
  type RecordedRequest,
} from "./loopback";

/**
 * A loopback DashScope: Bearer key checked (401 InvalidApiKey otherwise), text-generation with
 * SSE only under X-DashScope-SSE: enable, embeddings, and wanx image tasks that must be submitted
 * with X-DashScope-Async: enable and succeed on their second poll.
 */
export type AliMock = { url: string; requests: RecordedRequest[]; fault?: ProviderFault; close: () => Promise<void> };

export async function startAliMock(apiKey: string): Promise<AliMock> {
  const mock: AliMock = { url: "", requests: [], close: async () => undefined };
  const polls = new Map<string, number>();
  let tasks = 0;
  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const requestId = "7574ee8f-38a3-4b1e-9280-11c33ab46e51";
      if (req.headers.authorization !== `Bearer ${apiKey}`)
        return sendJson(res, 401, {
          code: "InvalidApiKey",
          message: "Invalid API-key provided.",
          request_id: requestId,
        });
      if (answerFault(res, mock.fault)) return;
      const path = req.url ?? "";
      const task = /^\/api\/v1\/tasks\/([^/]+)$/.exec(path);
      if (task && req.method === "GET") {
        const seen = (polls.get(task[1]!) ?? 0) + 1;
        polls.set(task[1]!, seen);
        if (seen < 2)
          return sendJson(res, 200, { request_id: requestId, output: { task_id: task[1], task_status: "RUNNING" } });
        return sendJson(res, 200, providerFixture("ali", "task-succeeded.json").replace("TASK_ID", task[1]!));
      }
      if (path === "/api/v1/services/aigc/text2image/image-synthesis") {
        if (req.headers["x-dashscope-async"] !== "enable")
          return sendJson(res, 403, {
            code: "AccessDenied",
            message: "current user api does not support synchronous calls",
            request_id: requestId,
          });
        const id = `task-${(tasks += 1)}`;
        return sendJson(res, 200, { output: { task_status: "PENDING", task_id: id }, request_id: requestId });
      }
      if (path === "/api/v1/services/embeddings/text-embedding/text-embedding")
        return sendJson(res, 200, providerFixture("ali", "embeddings.json"));
      if (path === "/api/v1/services/aigc/text-generation/generation") {
        if (req.headers["x-dashscope-sse"] === "enable") {
          res.writeHead(200, { "Content-Type": "text/event-stream;charset=UTF-8" });
          await writeFragmented(res, providerFixture("ali", "stream.sse"));
          return;
        }
        return sendJson(res, 200, providerFixture("ali", "chat.json"));
      }
      sendJson(res, 404, { code: "NotFound", message: "Not Found", request_id: requestId });
    });
  });
  const listening = await listen(server);
  mock.url = listening.url;
  mock.close = listening.close;
  return mock;
}
