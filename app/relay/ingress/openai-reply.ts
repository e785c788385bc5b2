import type { Usage } from "../billing/pricing";
import { asArray, asString, isObject, type Json } from "./json-shape";

/** What a converted reply needs from an OpenAI chat completion or chunk (first choice only). */
export type ToolCall = { id: string; name: string; arguments: string };
export type ReplyParts = { id: string; text: string; reasoning: string; toolCalls: ToolCall[]; finishReason: string | null };

export function readCompletion(reply: Json): ReplyParts {
  const choice = asArray(reply.choices).find(isObject) ?? {};
  const message = isObject(choice.message) ? choice.message : {};
  const content = message.content;
  const text = typeof content === "string" ? content : asArray(content).map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join("");
  const toolCalls = asArray(message.tool_calls)
    .filter(isObject)
    .map((call) => {
      const fn = isObject(call.function) ? call.function : {};
      return { id: asString(call.id) ?? "", name: asString(fn.name) ?? "", arguments: asString(fn.arguments) ?? "" };
    });
  return { id: asString(reply.id) ?? "", text, reasoning: asString(message.reasoning_content) ?? "", toolCalls, finishReason: asString(choice.finish_reason) ?? null };
}

/** One delta of a chunk: text, tool-call fragments by index, and the finish reason when it comes. */
export type ChunkDelta = { id?: string; text: string; toolCalls: { index: number; id?: string; name?: string; arguments?: string }[]; finishReason?: string };

export function readChunk(chunk: Json): ChunkDelta {
  const choice = asArray(chunk.choices).find(isObject);
  const delta = choice && isObject(choice.delta) ? choice.delta : {};
  const toolCalls = asArray(delta.tool_calls)
    .filter(isObject)
    .map((call) => {
      const fn = isObject(call.function) ? call.function : {};
      return { index: typeof call.index === "number" ? call.index : 0, id: asString(call.id), name: asString(fn.name), arguments: asString(fn.arguments) };
    });
  return { id: asString(chunk.id), text: asString(delta.content) ?? "", toolCalls, finishReason: choice ? asString(choice.finish_reason) : undefined };
}

export const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0 };
