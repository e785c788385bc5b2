import type { Usage } from "../../billing/pricing";

/** OpenAI chat objects built by the converting adapters (replies name the model the client asked for). */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export type OpenAiToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

export function chatCompletion(fields: {
  id: string;
  model: string;
  content: string;
  finishReason: FinishReason;
  usage?: Usage;
  toolCalls?: OpenAiToolCall[];
}) {
  const message: Record<string, unknown> = { role: "assistant", content: fields.content };
  if (fields.toolCalls?.length) message.tool_calls = fields.toolCalls;
  return {
    id: fields.id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: fields.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: fields.finishReason }],
    usage: fields.usage ? openAiUsage(fields.usage) : undefined,
  };
}

export function openAiUsage(usage: Usage) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
  };
}

/** A chat.completion.chunk factory for one stream: one id and creation time for all its chunks. */
export function chunkWriter(id: string, model: string) {
  const created = Math.floor(Date.now() / 1000);
  return {
    delta: (delta: Record<string, unknown>, finishReason: FinishReason | null = null) =>
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      }),
    usage: (usage: Usage) =>
      JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: openAiUsage(usage) }),
  };
}

/** The text of an OpenAI message content: a string, or the text parts of a parts array. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part && typeof part === "object" && (part as { type?: unknown }).type === "text"
        ? String((part as { text?: unknown }).text ?? "")
        : "",
    )
    .join("");
}

export type OpenAiMessage = {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
  name?: unknown;
};

export function messagesOf(body: Record<string, unknown>): OpenAiMessage[] {
  return Array.isArray(body.messages)
    ? (body.messages.filter((m) => m && typeof m === "object") as OpenAiMessage[])
    : [];
}

/** Sampling fields most providers share under OpenAI's names, copied when present. */
export function pickFields(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (body[name] !== undefined && body[name] !== null) out[name] = body[name];
  return out;
}

export const randomId = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/**
 * A vector as the client asked for it: OpenAI's `encoding_format: "base64"` (the openai SDKs'
 * default) is the little-endian float32 bytes in base64; most providers only answer numbers.
 * Anything not a number counts as 0.
 */
export function encodeEmbedding(embedding: unknown, format: unknown): unknown {
  if (format !== "base64" || !Array.isArray(embedding)) return embedding;
  const floats = Float32Array.from(embedding.map((n) => (typeof n === "number" ? n : Number(n) || 0)));
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString("base64");
}
