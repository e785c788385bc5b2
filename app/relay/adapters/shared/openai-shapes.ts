import type { Usage } from "../../billing/pricing";
import type { ParsedUsage } from "../../billing/usage-parse";

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

/** Usage shown to the client: what billing believed (zeros when the upstream's was rejected or absent). */
export function shownUsage(usage: Usage | undefined) {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * A text-only chat completion as a relay reply: the serialised body plus the usage billing
 * parsed. Unlike `chatCompletion` it always shows usage (zeros when there is none) and a missing
 * finish reason is "stop". Used by the converters of providers that answer text only.
 */
export function plainChatCompletion(
  id: string,
  model: string,
  content: string,
  finish: FinishReason | null,
  parsed: ParsedUsage,
) {
  const usage = shownUsage(parsed.usage);
  return {
    body: JSON.stringify(chatCompletion({ id, model, content, finishReason: finish ?? "stop", usage })),
    ...parsed,
  };
}

/** An embeddings list as a relay reply: the serialised body plus the usage billing parsed. */
export function embeddingList(
  model: string,
  vectors: { index: number; embedding: unknown }[],
  parsed: ParsedUsage,
  format?: unknown,
) {
  const usage = shownUsage(parsed.usage);
  const data = vectors.map((v) => ({
    object: "embedding",
    index: v.index,
    embedding: encodeEmbedding(v.embedding, format),
  }));
  return {
    body: JSON.stringify({
      object: "list",
      data,
      model,
      usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens },
    }),
    ...parsed,
  };
}

export type PlainMessage = { role: string; content: string };

/** The client's messages as role + text (`textOf` drops image parts); `developer` is read as `system`. */
export function plainMessages(body: Record<string, unknown>): PlainMessage[] {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  return messages.map((m) => ({
    role: m.role === "developer" ? "system" : typeof m.role === "string" ? m.role : "user",
    content: textOf(m.content),
  }));
}

/** The client's embeddings input as a list of texts. */
export function embeddingTexts(body: Record<string, unknown>): string[] {
  const input = body.input;
  if (typeof input === "string") return [input];
  if (Array.isArray(input)) return input.filter((t): t is string => typeof t === "string");
  return [];
}

export function numberField(body: Record<string, unknown>, key: string): number | undefined {
  const value = body[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A provider's own request id when it sent one, else a fresh one. */
export function replyId(prefix: string, upstreamId: unknown): string {
  return `${prefix}${typeof upstreamId === "string" && upstreamId ? upstreamId : Date.now().toString(36)}`;
}

export function parseJson(text: string | Buffer): unknown {
  try {
    return JSON.parse(typeof text === "string" ? text : text.toString("utf8"));
  } catch {
    return undefined;
  }
}

export function asRecord(value: unknown): Record<string, any> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, any>) : {};
}
