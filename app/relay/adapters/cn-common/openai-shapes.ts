import type { Usage } from "../../billing/pricing";
import type { ParsedUsage } from "../../billing/usage-parse";
import { encodeEmbedding, textOf, type FinishReason as OpenAiFinish } from "../shared/openai-shapes";

// Shared with the other converting adapters; re-exported so this folder's converters import one module.
// Providers here take text only: textOf drops image parts, as the reference does.
export { chunkWriter, encodeEmbedding, textOf } from "../shared/openai-shapes";

/**
 * The OpenAI reply shapes the Chinese providers' converters produce: a chat completion, a
 * stream chunk, an embeddings list. Usage shown to the client is what billing believed (zeros
 * when the upstream's was rejected or absent).
 */
export type { FinishReason as OpenAiFinish } from "../shared/openai-shapes";

export function shownUsage(usage: Usage | undefined) {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function chatCompletion(
  id: string,
  model: string,
  content: string,
  finish: OpenAiFinish | null,
  parsed: ParsedUsage,
) {
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

/** The client's messages as role + text; `developer` is read as `system`. */
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
