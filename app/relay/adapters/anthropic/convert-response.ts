import { parseAnthropicUsage, type ParsedUsage } from "../../billing/usage-parse";
import { mapFinishReason } from "./map-finish-reason";

/** As Anthropic documents it; what arrives is checked by usage-parse, so any field may hold anything. */
export type AnthropicUsage = {
  input_tokens?: unknown;
  output_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
};
export type AnthropicMessage = {
  id?: string;
  content?: { type: string; text?: string; id?: string; name?: string; input?: unknown; thinking?: string }[];
  stop_reason?: string | null;
  usage?: AnthropicUsage;
};

/**
 * Anthropic usage → the OpenAI usage object shown to the client (prompt tokens include cached
 * ones, which Anthropic reports apart from input_tokens) and what billing reads. A usage that
 * fails the check shows zeros to the client and bills counted tokens.
 */
export function openAiUsage(usage: unknown, completionFallback = 0) {
  const parsed = parseAnthropicUsage(usage, completionFallback);
  const prompt = parsed.usage?.prompt_tokens ?? 0;
  const completion = parsed.usage?.completion_tokens ?? 0;
  const billing: ParsedUsage = { usage: parsed.usage, usageNote: parsed.usageNote };
  return {
    shown: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: parsed.cachedTokens },
    },
    billing,
  };
}

export function toOpenAiResponse(message: AnthropicMessage, requestModel: string) {
  const text = (message.content ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");
  const reasoning = (message.content ?? [])
    .filter((b) => b.type === "thinking")
    .map((b) => b.thinking ?? "")
    .join("");
  const toolCalls = (message.content ?? [])
    .filter((b) => b.type === "tool_use")
    .map((b) => ({
      id: b.id ?? "",
      type: "function" as const,
      function: { name: b.name ?? "", arguments: JSON.stringify(b.input ?? {}) },
    }));
  const { shown: usage, billing } = openAiUsage(message.usage);
  const body = {
    id: `chatcmpl-${message.id ?? ""}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: requestModel,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: toolCalls.length && !text ? null : text,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: mapFinishReason(message.stop_reason) ?? "stop",
      },
    ],
    usage,
  };
  return { body, ...billing };
}
