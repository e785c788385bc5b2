import { parseOpenAiUsage } from "../../billing/usage-parse";
import {
  asRecord,
  plainChatCompletion,
  chunkWriter,
  embeddingList,
  embeddingTexts,
  numberField,
  parseJson,
  plainMessages,
  replyId,
  type FinishReason,
} from "../shared/openai-shapes";
import type { StreamStep, StreamTranslator } from "../types";

/**
 * OpenAI chat ⇄ ERNIE (wenxinworkshop chat). System turns go in the `system` field; ERNIE
 * wants user and assistant turns alternating from a user turn, so same-role neighbours are merged.
 */
export function toErnieRequest(body: Record<string, unknown>, stream: boolean): Record<string, unknown> {
  const system: string[] = [];
  const messages: { role: "user" | "assistant"; content: string }[] = [];
  for (const message of plainMessages(body)) {
    if (message.role === "system") {
      system.push(message.content);
      continue;
    }
    const role = message.role === "assistant" ? "assistant" : "user";
    const last = messages.at(-1);
    if (last && last.role === role) last.content += `\n${message.content}`;
    else messages.push({ role, content: message.content });
  }
  const request: Record<string, unknown> = { messages };
  if (system.length) request.system = system.join("\n");
  // ERNIE takes temperature in (0, 1] and rejects 0.
  const temperature = numberField(body, "temperature");
  if (temperature !== undefined) request.temperature = Math.min(1, Math.max(0.01, temperature));
  const topP = numberField(body, "top_p");
  if (topP !== undefined) request.top_p = topP;
  const maxTokens = numberField(body, "max_completion_tokens") ?? numberField(body, "max_tokens");
  if (maxTokens !== undefined) request.max_output_tokens = Math.max(2, Math.floor(maxTokens));
  if (body.stop) request.stop = Array.isArray(body.stop) ? body.stop : [body.stop];
  if (typeof body.user === "string") request.user_id = body.user;
  if (stream) request.stream = true;
  return request;
}

export function ernieFinish(reason: unknown): FinishReason {
  if (reason === "length") return "length";
  if (reason === "content_filter") return "content_filter";
  if (reason === "function_call") return "tool_calls";
  return "stop";
}

export function fromErnieResponse(raw: Buffer, requestModel: string) {
  const reply = asRecord(parseJson(raw));
  return plainChatCompletion(
    replyId("chatcmpl-", reply.id),
    requestModel,
    typeof reply.result === "string" ? reply.result : "",
    ernieFinish(reply.finish_reason),
    parseOpenAiUsage(reply.usage),
  );
}

export function toErnieEmbeddingRequest(body: Record<string, unknown>): Record<string, unknown> {
  const request: Record<string, unknown> = { input: embeddingTexts(body) };
  if (typeof body.user === "string") request.user_id = body.user;
  return request;
}

export function fromErnieEmbeddings(raw: Buffer, requestModel: string, format?: unknown) {
  const reply = asRecord(parseJson(raw));
  const data = Array.isArray(reply.data) ? (reply.data as unknown[]).map(asRecord) : [];
  return embeddingList(
    requestModel,
    data.map((d, i) => ({ index: typeof d.index === "number" ? d.index : i, embedding: d.embedding })),
    parseOpenAiUsage(reply.usage),
    format,
  );
}

/** ERNIE stream events (`data: {result, is_end, usage}`) → OpenAI chunks; usage is cumulative, the last one bills. */
export function createErnieStreamTranslator(requestModel: string, forwardUsage: boolean): StreamTranslator {
  let write: ReturnType<typeof chunkWriter> | undefined;
  return {
    push(_event, data): StreamStep {
      const payload = asRecord(parseJson(data));
      if (typeof payload.error_code === "number") {
        return {
          chunks: [],
          error: {
            message: typeof payload.error_msg === "string" ? payload.error_msg : "百度流式响应出错",
            type: "baidu_error",
            code: String(payload.error_code),
          },
        };
      }
      const chunks: string[] = [];
      if (!write) {
        write = chunkWriter(replyId("chatcmpl-", payload.id), requestModel);
        chunks.push(write.delta({ role: "assistant", content: "" }));
      }
      const text = typeof payload.result === "string" ? payload.result : "";
      if (text) chunks.push(write.delta({ content: text }));
      if (payload.is_end !== true) return { chunks, text };
      chunks.push(write.delta({}, ernieFinish(payload.finish_reason)));
      const parsed = parseOpenAiUsage(payload.usage);
      if (forwardUsage && parsed.usage) chunks.push(write.usage(parsed.usage));
      return { chunks, text, ...parsed, done: true };
    },
  };
}
