import { parseCounts, type ParsedUsage } from "../../billing/usage-parse";
import {
  asRecord,
  plainChatCompletion,
  chunkWriter,
  numberField,
  parseJson,
  plainMessages,
  replyId,
  type FinishReason,
} from "../shared/openai-shapes";
import type { StreamStep, StreamTranslator } from "../types";

/** OpenAI chat ⇄ Hunyuan ChatCompletions (2023-09-01): PascalCase fields, usage PromptTokens/CompletionTokens. */
export function toHunyuanRequest(
  body: Record<string, unknown>,
  model: string,
  stream: boolean,
): Record<string, unknown> {
  const request: Record<string, unknown> = {
    Model: model,
    Messages: plainMessages(body).map((m) => ({
      Role: ["system", "user", "assistant", "tool"].includes(m.role) ? m.role : "user",
      Content: m.content,
    })),
    Stream: stream,
  };
  const temperature = numberField(body, "temperature");
  const topP = numberField(body, "top_p");
  if (temperature !== undefined) request.Temperature = temperature;
  if (topP !== undefined) request.TopP = topP;
  return request;
}

export function hunyuanUsage(usage: unknown): ParsedUsage {
  const u = asRecord(usage);
  if (usage === undefined || usage === null) return {};
  return parseCounts({
    prompt_tokens: { key: "PromptTokens", value: u.PromptTokens },
    completion_tokens: { key: "CompletionTokens", value: u.CompletionTokens },
  });
}

export function hunyuanFinish(reason: unknown): FinishReason | null {
  if (reason === "stop") return "stop";
  if (reason === "length") return "length";
  if (reason === "sensitive") return "content_filter";
  if (reason === "tool_calls") return "tool_calls";
  return null;
}

export function fromHunyuanResponse(raw: Buffer, requestModel: string) {
  const response = asRecord(asRecord(parseJson(raw)).Response);
  const choice = Array.isArray(response.Choices) && response.Choices.length ? asRecord(response.Choices[0]) : {};
  const content = asRecord(choice.Message).Content;
  return plainChatCompletion(
    replyId("chatcmpl-", response.Id ?? response.RequestId),
    requestModel,
    typeof content === "string" ? content : "",
    hunyuanFinish(choice.FinishReason) ?? "stop",
    hunyuanUsage(response.Usage),
  );
}

/** Stream events are the Response's fields unwrapped (`{Choices:[{Delta, FinishReason}], Usage}`). */
export function createHunyuanStreamTranslator(requestModel: string, forwardUsage: boolean): StreamTranslator {
  let write: ReturnType<typeof chunkWriter> | undefined;
  return {
    push(_event, data): StreamStep {
      const payload = asRecord(parseJson(data));
      const failure = asRecord(payload.ErrorMsg ?? asRecord(payload.Response).Error);
      if (typeof failure.Code === "string" || typeof failure.Msg === "string") {
        return {
          chunks: [],
          error: {
            message: String(failure.Message ?? failure.Msg ?? "混元流式响应出错"),
            type: "tencent_error",
            code: failure.Code === undefined ? null : String(failure.Code),
          },
        };
      }
      const chunks: string[] = [];
      if (!write) {
        write = chunkWriter(replyId("chatcmpl-", payload.Id), requestModel);
        chunks.push(write.delta({ role: "assistant", content: "" }));
      }
      const choice = Array.isArray(payload.Choices) && payload.Choices.length ? asRecord(payload.Choices[0]) : {};
      const content = asRecord(choice.Delta).Content;
      const text = typeof content === "string" ? content : "";
      if (text) chunks.push(write.delta({ content: text }));
      const parsed = hunyuanUsage(payload.Usage);
      const finish = hunyuanFinish(choice.FinishReason);
      if (!finish) return { chunks, text, ...parsed };
      chunks.push(write.delta({}, finish));
      if (forwardUsage && parsed.usage) chunks.push(write.usage(parsed.usage));
      return { chunks, text, ...parsed, done: true };
    },
  };
}
