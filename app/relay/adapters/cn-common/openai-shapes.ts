import type { Usage } from "../../billing/pricing";
import type { ParsedUsage } from "../../billing/usage-parse";

/**
 * The OpenAI reply shapes the Chinese providers' converters produce: a chat completion, a
 * stream chunk, an embeddings list. Usage shown to the client is what billing believed (zeros
 * when the upstream's was rejected or absent).
 */
export type OpenAiFinish = "stop" | "length" | "tool_calls" | "content_filter";

export function shownUsage(usage: Usage | undefined) {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function chatCompletion(id: string, model: string, content: string, finish: OpenAiFinish | null, parsed: ParsedUsage) {
  return {
    body: JSON.stringify({
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: "assistant", content }, logprobs: null, finish_reason: finish ?? "stop" }],
      usage: shownUsage(parsed.usage),
    }),
    ...parsed,
  };
}

/** Builds chunks of one stream: the same id and created time on every chunk, as OpenAI sends them. */
export function chunkWriter(id: string, model: string) {
  const created = Math.floor(Date.now() / 1000);
  return {
    delta: (delta: Record<string, unknown>, finish: OpenAiFinish | null = null) =>
      JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
    usage: (usage: Usage) => JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: shownUsage(usage) }),
  };
}

/**
 * A vector as the client asked for it: OpenAI's `encoding_format: "base64"` (the openai SDK's
 * default) is little-endian float32 bytes in base64; these providers only ever answer numbers.
 */
export function encodeEmbedding(embedding: unknown, format: unknown): unknown {
  if (format !== "base64" || !Array.isArray(embedding)) return embedding;
  const floats = Float32Array.from(embedding.map((n) => (typeof n === "number" ? n : 0)));
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString("base64");
}

export function embeddingList(model: string, vectors: { index: number; embedding: unknown }[], parsed: ParsedUsage, format?: unknown) {
  const usage = shownUsage(parsed.usage);
  const data = vectors.map((v) => ({ object: "embedding", index: v.index, embedding: encodeEmbedding(v.embedding, format) }));
  return {
    body: JSON.stringify({ object: "list", data, model, usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens } }),
    ...parsed,
  };
}

type Part = { type?: string; text?: string };
export type PlainMessage = { role: string; content: string };

/** A message's text (providers here take text only: image parts are dropped, as the reference does). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Part[]).map((p) => (p && p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
}

/** The client's messages as role + text; `developer` is read as `system`. */
export function plainMessages(body: Record<string, unknown>): PlainMessage[] {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  return messages.map((m) => ({ role: m.role === "developer" ? "system" : typeof m.role === "string" ? m.role : "user", content: textOf(m.content) }));
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
