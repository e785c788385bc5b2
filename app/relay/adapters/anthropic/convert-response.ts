import { mapFinishReason } from "./map-finish-reason";

export type AnthropicUsage = { input_tokens?: number | null; output_tokens?: number | null; cache_creation_input_tokens?: number | null; cache_read_input_tokens?: number | null };
export type AnthropicMessage = {
  id?: string;
  content?: { type: string; text?: string; id?: string; name?: string; input?: unknown; thinking?: string }[];
  stop_reason?: string | null;
  usage?: AnthropicUsage;
};

/** Prompt tokens include cached ones (Anthropic reports them apart from input_tokens). */
export function openAiUsage(usage: AnthropicUsage | undefined, completionFallback = 0) {
  const cached = usage?.cache_read_input_tokens ?? 0;
  const prompt = (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + cached;
  const completion = usage?.output_tokens ?? completionFallback;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } };
}

export function toOpenAiResponse(message: AnthropicMessage, requestModel: string) {
  const text = (message.content ?? []).filter((b) => b.type === "text").map((b) => b.text ?? "").join("");
  const reasoning = (message.content ?? []).filter((b) => b.type === "thinking").map((b) => b.thinking ?? "").join("");
  const toolCalls = (message.content ?? [])
    .filter((b) => b.type === "tool_use")
    .map((b) => ({ id: b.id ?? "", type: "function" as const, function: { name: b.name ?? "", arguments: JSON.stringify(b.input ?? {}) } }));
  const usage = openAiUsage(message.usage);
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
  return { body, usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens } };
}
