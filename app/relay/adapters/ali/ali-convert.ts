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
 * OpenAI ⇄ DashScope (text-generation with result_format "message"; incremental_output in
 * streams so each event is a delta, not the text so far). Usage is input_tokens/output_tokens.
 * Text only: tools are not sent, since the replies' tool calls are not converted back.
 */
export function toDashScopeChat(
  body: Record<string, unknown>,
  model: string,
  stream: boolean,
): Record<string, unknown> {
  const parameters: Record<string, unknown> = { result_format: "message" };
  if (stream) parameters.incremental_output = true;
  for (const key of ["temperature", "top_p", "top_k", "seed", "presence_penalty", "repetition_penalty"]) {
    const value = numberField(body, key);
    if (value !== undefined) parameters[key] = value;
  }
  const maxTokens = numberField(body, "max_completion_tokens") ?? numberField(body, "max_tokens");
  if (maxTokens !== undefined) parameters.max_tokens = maxTokens;
  if (body.stop) parameters.stop = Array.isArray(body.stop) ? body.stop : [body.stop];
  if (typeof body.enable_search === "boolean") parameters.enable_search = body.enable_search;
  return { model, input: { messages: plainMessages(body) }, parameters };
}

export function dashScopeFinish(reason: unknown): FinishReason | null {
  if (reason === "length") return "length";
  if (reason === "tool_calls") return "tool_calls";
  if (reason === "stop") return "stop";
  // DashScope writes the string "null" on every event but the last.
  return null;
}

type Choice = { finish_reason?: unknown; message?: { content?: unknown; tool_calls?: unknown } };

function choiceOf(reply: Record<string, any>): Choice {
  const choices = asRecord(reply.output).choices;
  return Array.isArray(choices) && choices.length ? asRecord(choices[0]) : {};
}

export function fromDashScopeChat(raw: Buffer, requestModel: string) {
  const reply = asRecord(parseJson(raw));
  const choice = choiceOf(reply);
  const content = typeof choice.message?.content === "string" ? choice.message.content : asRecord(reply.output).text;
  return plainChatCompletion(
    replyId("chatcmpl-", reply.request_id),
    requestModel,
    typeof content === "string" ? content : "",
    dashScopeFinish(choice.finish_reason) ?? "stop",
    parseOpenAiUsage(reply.usage),
  );
}

export function createDashScopeStreamTranslator(requestModel: string, forwardUsage: boolean): StreamTranslator {
  let write: ReturnType<typeof chunkWriter> | undefined;
  return {
    push(event, data): StreamStep {
      const payload = asRecord(parseJson(data));
      if (event === "error" || (typeof payload.code === "string" && payload.code && !payload.output)) {
        return {
          chunks: [],
          error: {
            message: typeof payload.message === "string" ? payload.message : "通义千问流式响应出错",
            type: "ali_error",
            code: typeof payload.code === "string" ? payload.code : null,
          },
        };
      }
      const chunks: string[] = [];
      if (!write) {
        write = chunkWriter(replyId("chatcmpl-", payload.request_id), requestModel);
        chunks.push(write.delta({ role: "assistant", content: "" }));
      }
      const choice = choiceOf(payload);
      const text = typeof choice.message?.content === "string" ? choice.message.content : "";
      if (text) chunks.push(write.delta({ content: text }));
      const finish = dashScopeFinish(choice.finish_reason);
      // Every event carries the usage so far: the latest one is the bill.
      const parsed = parseOpenAiUsage(payload.usage);
      if (!finish) return { chunks, text, ...parsed };
      chunks.push(write.delta({}, finish));
      if (forwardUsage && parsed.usage) chunks.push(write.usage(parsed.usage));
      return { chunks, text, ...parsed, done: true };
    },
  };
}

export function toDashScopeEmbeddings(body: Record<string, unknown>, model: string): Record<string, unknown> {
  return { model, input: { texts: embeddingTexts(body) }, parameters: { text_type: "query" } };
}

export function fromDashScopeEmbeddings(raw: Buffer, requestModel: string, format?: unknown) {
  const reply = asRecord(parseJson(raw));
  const vectors = Array.isArray(asRecord(reply.output).embeddings)
    ? (asRecord(reply.output).embeddings as unknown[]).map(asRecord)
    : [];
  const usage = asRecord(reply.usage);
  // Embeddings report only total_tokens: all of it is input.
  const parsed = parseOpenAiUsage(
    usage.total_tokens === undefined ? undefined : { prompt_tokens: usage.total_tokens, completion_tokens: 0 },
  );
  return embeddingList(
    requestModel,
    vectors.map((v, i) => ({ index: typeof v.text_index === "number" ? v.text_index : i, embedding: v.embedding })),
    parsed,
    format,
  );
}

/** OpenAI image request → a wanx text2image task (size "1024x1024" is written "1024*1024"). */
export function toWanxTask(body: Record<string, unknown>, model: string): Record<string, unknown> {
  const parameters: Record<string, unknown> = { n: numberField(body, "n") ?? 1 };
  if (typeof body.size === "string") parameters.size = body.size.replace("x", "*");
  const input: Record<string, unknown> = { prompt: typeof body.prompt === "string" ? body.prompt : "" };
  if (typeof body.negative_prompt === "string") input.negative_prompt = body.negative_prompt;
  return { model, input, parameters };
}

/** A finished task → OpenAI's images reply (the results that failed are left out). */
export function fromWanxTask(raw: Buffer): string {
  const output = asRecord(asRecord(parseJson(raw)).output);
  const results = Array.isArray(output.results) ? (output.results as unknown[]).map(asRecord) : [];
  const data = results
    .filter((r) => typeof r.url === "string")
    .map((r) => ({ url: r.url as string, revised_prompt: "" }));
  return JSON.stringify({ created: Math.floor(Date.now() / 1000), data });
}
