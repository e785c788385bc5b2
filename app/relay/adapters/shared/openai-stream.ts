import { parseOpenAiUsage, type ParsedUsage } from "../../billing/usage-parse";
import type { StreamStep, StreamTranslator } from "../types";

type Chunk = {
  id?: string;
  created?: unknown;
  object?: string;
  choices?: {
    index?: unknown;
    finish_reason?: unknown;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: { function?: { arguments?: string } }[];
    };
    text?: string;
  }[];
  usage?: unknown;
  error?: unknown;
};

/**
 * OpenAI-compatible streams pass through unchanged, except: the usage-only chunk is kept back
 * unless the client asked for it, and Azure's leading empty-identity chunk (no id, no
 * choices) is dropped. The text seen is reported so billing can count tokens when no usage comes.
 * The reply is whole at [DONE], or once every choice begun has its finish_reason: some
 * compatible upstreams close the body without [DONE], and only their usage chunk could be missing.
 */
const DONE: StreamStep = Object.freeze({ chunks: [], done: true });
const NO_USAGE: ParsedUsage = Object.freeze({});

export function createOpenAiStreamTranslator(forwardUsage: boolean): StreamTranslator {
  let sawDone = false;
  // The choices begun and not yet finished, by their index (untrusted: any value is a key).
  const unfinished = new Set<unknown>();
  let finishedAny = false;
  let identified = false;
  return {
    push(_event, data): StreamStep {
      if (data === "[DONE]") {
        sawDone = true;
        return DONE;
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(data) as Chunk;
      } catch {
        return { chunks: [] };
      }
      if (chunk.error) {
        const e = chunk.error as { message?: string; type?: string; code?: string };
        return {
          chunks: [],
          error: {
            message: e.message ?? "upstream stream error",
            type: e.type ?? "upstream_error",
            code: e.code ?? null,
          },
        };
      }
      // Most chunks carry `"usage":null` (or none): nothing to read.
      const parsed: ParsedUsage = chunk.usage == null ? NO_USAGE : parseOpenAiUsage(chunk.usage);
      const choices = chunk.choices ?? [];
      if (choices.length === 0) {
        // Usage-only chunk, or Azure's prompt-annotation chunk.
        return { chunks: chunk.usage != null && forwardUsage ? [data] : [], ...parsed, usageOnly: chunk.usage != null };
      }
      let text = "";
      for (const choice of choices) {
        if (choice.finish_reason) {
          unfinished.delete(choice.index);
          finishedAny = true;
        } else unfinished.add(choice.index);
        text += choice.delta?.content ?? choice.delta?.reasoning_content ?? choice.text ?? "";
        for (const call of choice.delta?.tool_calls ?? []) text += call.function?.arguments ?? "";
      }
      // The first forwarded chunk names the stream (a chunk the gateway adds at the end reuses it).
      const identity = identified ? undefined : { id: chunk.id, created: chunk.created };
      identified = true;
      return { chunks: [data], ...parsed, text, identity, usageOnly: false };
    },
    finished: () => sawDone || (finishedAny && unfinished.size === 0),
  };
}
