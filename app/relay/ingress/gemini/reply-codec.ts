import type { UpstreamError } from "../../adapters/types";
import type { Usage } from "../../billing/pricing";
import { parseArguments, sseFrame, type Json } from "../json-shape";
import { readChunk, readCompletion, type ToolCall } from "../openai-reply";
import type { NativeStreamWriter, ReplyCodec } from "../types";
import { googleErrorBody } from "./errors";

/** OpenAI finish_reason → Gemini finishReason (a tool call finishes with STOP, as Gemini's do). */
function finishReason(finish: string | null | undefined): string {
  if (finish === "length") return "MAX_TOKENS";
  if (finish === "content_filter") return "SAFETY";
  return "STOP";
}

function usageMetadata(usage: Usage | undefined): Json {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  return { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion };
}

const callPart = (call: ToolCall): Json => ({ functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: parseArguments(call.arguments) } });

/** An OpenAI reply, whole or streamed, as a GenerateContentResponse. */
export const geminiReplyCodec: ReplyCodec = {
  convertReply(reply, usage, requestModel) {
    const parts = readCompletion(reply);
    const content: Json[] = [];
    if (parts.text) content.push({ text: parts.text });
    content.push(...parts.toolCalls.map(callPart));
    return {
      candidates: [{ content: { role: "model", parts: content }, finishReason: finishReason(parts.finishReason), index: 0 }],
      usageMetadata: usageMetadata(usage),
      modelVersion: requestModel,
      responseId: parts.id,
    };
  },
  createStreamWriter: (requestModel) => new GeminiStreamWriter(requestModel),
};

/**
 * OpenAI chunks → Gemini SSE chunks: each text delta one chunk; tool calls are gathered (Gemini
 * sends a function call whole, never in pieces) and go out in the last chunk, with the finish
 * reason and the usage billed.
 */
class GeminiStreamWriter implements NativeStreamWriter {
  private responseId = "";
  private finish: string | undefined;
  private readonly calls: ToolCall[] = [];

  constructor(private readonly requestModel: string) {}

  private frame(parts: Json[]): string {
    return sseFrame({ candidates: [{ content: { role: "model", parts }, index: 0 }], modelVersion: this.requestModel, responseId: this.responseId });
  }

  chunk(chunk: Json): string {
    const delta = readChunk(chunk);
    if (delta.id && !this.responseId) this.responseId = delta.id;
    for (const call of delta.toolCalls) {
      const known = this.calls[call.index];
      if (known) known.arguments += call.arguments ?? "";
      else this.calls[call.index] = { id: call.id ?? "", name: call.name ?? "", arguments: call.arguments ?? "" };
    }
    if (delta.finishReason) this.finish = delta.finishReason;
    return delta.text ? this.frame([{ text: delta.text }]) : "";
  }

  close(billed: Usage, error?: UpstreamError): string {
    if (error) return sseFrame(googleErrorBody(500, error.message));
    const parts = this.calls.filter(Boolean).map(callPart);
    const last = { candidates: [{ content: { role: "model", parts: parts.length ? parts : [{ text: "" }] }, finishReason: finishReason(this.finish), index: 0 }], usageMetadata: usageMetadata(billed), modelVersion: this.requestModel, responseId: this.responseId };
    return sseFrame(last);
  }
}
