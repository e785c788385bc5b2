import type { Usage } from "../billing/pricing";
import { asArray, asString, isObject, type Json } from "./json-shape";

/** What a converted reply needs from an OpenAI chat completion or chunk. */
export type ToolCall = { id: string; name: string; arguments: string };
export type ReplyParts = {
  index: number;
  id: string;
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
};

/** A message's or delta's reasoning text: `reasoning_content` (DeepSeek and most compatible servers) or `reasoning`. */
function reasoningOf(message: Json): string {
  return asString(message.reasoning_content) ?? asString(message.reasoning) ?? "";
}

function partsOf(reply: Json, choice: Json, position: number): ReplyParts {
  const message = isObject(choice.message) ? choice.message : {};
  const content = message.content;
  const text =
    typeof content === "string"
      ? content
      : asArray(content)
          .map((p) => (isObject(p) && typeof p.text === "string" ? p.text : ""))
          .join("");
  const toolCalls = asArray(message.tool_calls)
    .filter(isObject)
    .map((call) => {
      const fn = isObject(call.function) ? call.function : {};
      return { id: asString(call.id) ?? "", name: asString(fn.name) ?? "", arguments: asString(fn.arguments) ?? "" };
    });
  const index = typeof choice.index === "number" ? choice.index : position;
  return {
    index,
    id: asString(reply.id) ?? "",
    text,
    reasoning: reasoningOf(message),
    toolCalls,
    finishReason: asString(choice.finish_reason) ?? null,
  };
}

/** The first choice of a completion (the only one a protocol without candidates can carry). */
export function readCompletion(reply: Json): ReplyParts {
  return partsOf(reply, asArray(reply.choices).find(isObject) ?? {}, 0);
}

/** Every choice of a completion (a request for n > 1), in their order. */
export function readCompletions(reply: Json): ReplyParts[] {
  const choices = asArray(reply.choices).filter(isObject);
  return choices.length ? choices.map((choice, position) => partsOf(reply, choice, position)) : [readCompletion(reply)];
}

/** One delta of a chunk: text, reasoning, tool-call fragments by index, and the finish reason when it comes. */
export type ChunkDelta = {
  id?: string;
  /** Which choice it belongs to (0 unless n > 1). */
  index: number;
  text: string;
  reasoning: string;
  toolCalls: { index: number; id?: string; name?: string; arguments?: string }[];
  finishReason?: string;
};

function deltaOf(chunk: Json, choice: Json | undefined): ChunkDelta {
  const delta = choice && isObject(choice.delta) ? choice.delta : {};
  const toolCalls = asArray(delta.tool_calls)
    .filter(isObject)
    .map((call) => {
      const fn = isObject(call.function) ? call.function : {};
      return {
        index: typeof call.index === "number" ? call.index : 0,
        id: asString(call.id),
        name: asString(fn.name),
        arguments: asString(fn.arguments),
      };
    });
  const index = choice && typeof choice.index === "number" ? choice.index : 0;
  return {
    id: asString(chunk.id),
    index,
    text: asString(delta.content) ?? "",
    reasoning: reasoningOf(delta),
    toolCalls,
    finishReason: choice ? asString(choice.finish_reason) : undefined,
  };
}

/** The first choice's delta of a chunk. */
export function readChunk(chunk: Json): ChunkDelta {
  return deltaOf(chunk, asArray(chunk.choices).find(isObject));
}

/** The delta of every choice a chunk carries (a stream for n > 1 interleaves them). */
export function readChunkChoices(chunk: Json): ChunkDelta[] {
  return asArray(chunk.choices)
    .filter(isObject)
    .map((choice) => deltaOf(chunk, choice));
}

export const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0 };
