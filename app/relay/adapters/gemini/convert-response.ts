import { randomBytes } from "node:crypto";
import { formatEmbedding } from "./embedding-format";
import { parseGeminiUsage as parseSharedGeminiUsage, type ParsedUsage } from "../../billing/usage-parse";

/** As Google documents it; what arrives is checked (usage-parse), so any field may hold anything. */
export type GeminiCandidate = {
  index?: number;
  content?: {
    role?: string;
    parts?: { text?: string; thought?: boolean; functionCall?: { name?: string; args?: unknown; id?: string } }[];
  };
  finishReason?: string;
};
export type GeminiResponse = {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: Record<string, unknown>;
  responseId?: string;
};

type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

const FILTERED = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
  "LANGUAGE",
]);

/** Gemini finishReason → one of OpenAI's finish reasons (never passed through raw); undefined while not finished. */
export function mapGeminiFinishReason(reason: string | undefined, calledTools: boolean): FinishReason | undefined {
  if (!reason) return undefined;
  if (reason === "MAX_TOKENS") return "length";
  if (FILTERED.has(reason)) return "content_filter";
  // A function call finishes with STOP: the OpenAI client expects tool_calls.
  return calledTools ? "tool_calls" : "stop";
}

/**
 * usageMetadata → what billing reads (usage-parse's Gemini reader: completion is the candidates'
 * tokens plus the thinking tokens, billed as output by Google) and what the client is shown.
 */
export function parseGeminiUsage(meta: unknown): ParsedUsage & { reasoningTokens: number; cachedTokens: number } {
  const parsed = parseSharedGeminiUsage(meta);
  return {
    ...parsed,
    reasoningTokens: parsed.usage?.reasoning_tokens ?? 0,
    cachedTokens: parsed.usage?.cached_tokens ?? 0,
  };
}

/** The usage object in OpenAI's shape (zeros when not believed). */
export function shownUsage(parsed: ReturnType<typeof parseGeminiUsage>) {
  const prompt = parsed.usage?.prompt_tokens ?? 0;
  const completion = parsed.usage?.completion_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: parsed.cachedTokens },
    completion_tokens_details: { reasoning_tokens: parsed.reasoningTokens },
  };
}

/** Gemini gives function calls no id (or one only sometimes): OpenAI clients need one to answer. */
export function toolCallId(given: string | undefined): string {
  return given || `call_${randomBytes(12).toString("hex")}`;
}

function messageOf(candidate: GeminiCandidate) {
  const parts = candidate.content?.parts ?? [];
  const text = parts
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("");
  const reasoning = parts
    .filter((p) => typeof p.text === "string" && p.thought)
    .map((p) => p.text)
    .join("");
  const toolCalls = parts
    .filter((p) => p.functionCall)
    .map((p) => ({
      id: toolCallId(p.functionCall!.id),
      type: "function" as const,
      function: { name: p.functionCall!.name ?? "", arguments: JSON.stringify(p.functionCall!.args ?? {}) },
    }));
  return { text, reasoning, toolCalls };
}

export function toOpenAiChatResponse(response: GeminiResponse, requestModel: string) {
  const parsed = parseGeminiUsage(response.usageMetadata);
  const blocked = !response.candidates?.length && response.promptFeedback?.blockReason;
  const choices = blocked
    ? [{ index: 0, message: { role: "assistant", content: "" }, logprobs: null, finish_reason: "content_filter" }]
    : (response.candidates ?? []).map((candidate, i) => {
        const { text, reasoning, toolCalls } = messageOf(candidate);
        return {
          index: candidate.index ?? i,
          message: {
            role: "assistant",
            content: toolCalls.length && !text ? null : text,
            ...(reasoning ? { reasoning_content: reasoning } : {}),
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0) ?? "stop",
        };
      });
  const body = {
    id: `chatcmpl-${response.responseId ?? randomBytes(12).toString("hex")}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: requestModel,
    choices,
    usage: shownUsage(parsed),
  };
  return { body, usage: parsed.usage, usageNote: parsed.usageNote };
}

/** `batchEmbedContents` reply → OpenAI embeddings list. Gemini reports no usage: the inputs are counted. */
export function toOpenAiEmbeddings(
  response: { embeddings?: { values?: unknown }[] },
  requestModel: string,
  promptTokens: number,
  body: Record<string, unknown> = {},
) {
  return {
    object: "list",
    data: (response.embeddings ?? []).map((e, index) => ({
      object: "embedding",
      index,
      embedding: formatEmbedding(e.values, body),
    })),
    model: requestModel,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}
