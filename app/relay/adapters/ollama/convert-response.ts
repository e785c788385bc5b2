import { encodeEmbedding } from "../shared/openai-shapes";
import type { Usage } from "../../billing/pricing";
import { parseCounts, type ParsedUsage } from "../../billing/usage-parse";
import { chatCompletion, type FinishReason, type OpenAiToolCall } from "../shared/openai-shapes";
import type { ReplyFailure } from "../types";

export type OllamaChatLine = {
  message?: {
    content?: unknown;
    thinking?: unknown;
    tool_calls?: { function?: { name?: unknown; arguments?: unknown } }[];
  };
  done?: unknown;
  done_reason?: unknown;
  prompt_eval_count?: unknown;
  eval_count?: unknown;
  error?: unknown;
};

export function ollamaUsage(line: { prompt_eval_count?: unknown; eval_count?: unknown }): ParsedUsage {
  return parseCounts({
    prompt_tokens: { key: "prompt_eval_count", value: line.prompt_eval_count },
    completion_tokens: { key: "eval_count", value: line.eval_count },
  });
}

export function mapOllamaFinish(reason: unknown, hasTools: boolean): FinishReason {
  if (hasTools) return "tool_calls";
  return reason === "length" ? "length" : "stop";
}

/** Ollama gives tool calls no ids (older builds) and arguments as objects: OpenAI wants both as strings. */
export function toolCallsOf(line: OllamaChatLine, prefix: string): OpenAiToolCall[] {
  return (line.message?.tool_calls ?? []).map((call, i) => ({
    id: `call_${prefix}_${i}`,
    type: "function",
    function: {
      name: String(call.function?.name ?? ""),
      arguments:
        typeof call.function?.arguments === "string"
          ? call.function.arguments
          : JSON.stringify(call.function?.arguments ?? {}),
    },
  }));
}

/** `{"error":"…"}` with status 200 (Ollama reports some failures inside the body). */
export function ollamaFailure(line: OllamaChatLine): ReplyFailure | undefined {
  if (typeof line.error !== "string") return undefined;
  return { status: 500, error: { message: line.error, type: "upstream_error", code: null } };
}

export function ollamaChatToOpenAi(
  line: OllamaChatLine,
  model: string,
  id: string,
): { body: string; usage?: Usage; usageNote?: ParsedUsage["usageNote"] } {
  const parsed = ollamaUsage(line);
  const toolCalls = toolCallsOf(line, id.slice(-8));
  const content = typeof line.message?.content === "string" ? line.message.content : "";
  const body = chatCompletion({
    id,
    model,
    content,
    finishReason: mapOllamaFinish(line.done_reason, toolCalls.length > 0),
    usage: parsed.usage,
    toolCalls,
  });
  return { body: JSON.stringify(body), ...parsed };
}

type OllamaEmbedReply = { embeddings?: unknown; prompt_eval_count?: unknown };

export function ollamaEmbedToOpenAi(
  reply: OllamaEmbedReply,
  model: string,
  encoding?: unknown,
): { body: string; usage?: Usage; usageNote?: ParsedUsage["usageNote"] } {
  const vectors = Array.isArray(reply.embeddings) ? reply.embeddings : [];
  const parsed = parseCounts({
    prompt_tokens: { key: "prompt_eval_count", value: reply.prompt_eval_count },
    completion_tokens: { key: "", value: undefined },
  });
  const data = vectors.map((embedding, index) => ({
    object: "embedding",
    index,
    embedding: encodeEmbedding(embedding, encoding),
  }));
  const usage = parsed.usage
    ? { prompt_tokens: parsed.usage.prompt_tokens, total_tokens: parsed.usage.prompt_tokens }
    : undefined;
  return { body: JSON.stringify({ object: "list", data, model, usage }), ...parsed };
}
