import type { UpstreamError } from "../../adapters/types";
import type { Usage } from "../../billing/pricing";
import { asArray, asNumber, asString, isObject, parseArguments, sseFrame, type Json } from "../json-shape";
import { readChunkChoices, readCompletions, type ToolCall } from "../openai-reply";
import type { NativeStreamWriter, ReplyCodec } from "../types";
import { googleErrorBody } from "./errors";

/** OpenAI finish_reason → Gemini finishReason (a tool call finishes with STOP, as Gemini's do). */
function finishReason(finish: string | null | undefined): string {
  if (finish === "length") return "MAX_TOKENS";
  if (finish === "content_filter") return "SAFETY";
  return "STOP";
}

/**
 * A usage in Gemini's terms: the prompt includes the cached content (reported as well), and the
 * candidates' tokens leave out the thoughts, which it reports apart (OpenAI's completion tokens
 * include the reasoning).
 */
function usageMetadata(usage: Usage | undefined): Json {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  const thoughts = usage?.reasoning_tokens ?? 0;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: completion - thoughts,
    totalTokenCount: prompt + completion,
    ...(usage?.cached_tokens ? { cachedContentTokenCount: usage.cached_tokens } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** An OpenAI token logprob ({token, logprob}) as Gemini's candidate ({token, logProbability}); junk → undefined. */
function logprobCandidate(entry: unknown): Json | undefined {
  if (!isObject(entry)) return undefined;
  const token = asString(entry.token);
  const logprob = asNumber(entry.logprob);
  return token === undefined || logprob === undefined ? undefined : { token, logProbability: logprob };
}

const present = (value: Json | undefined): value is Json => value !== undefined;

/**
 * A choice's `logprobs.content` (one entry per token, each with its top alternatives) as Gemini's
 * logprobsResult: the chosen tokens, and the top candidates at each step.
 */
function logprobsResult(choice: unknown): Json | undefined {
  const logprobs = isObject(choice) ? choice.logprobs : undefined;
  const tokens = isObject(logprobs) ? asArray(logprobs.content).filter(isObject) : [];
  if (tokens.length === 0) return undefined;
  return {
    chosenCandidates: tokens.map(logprobCandidate).filter(present),
    topCandidates: tokens.map((token) => ({
      candidates: asArray(token.top_logprobs).map(logprobCandidate).filter(present),
    })),
  };
}

/** The choice of a whole reply with this index, as sent. */
function rawChoice(reply: Json, index: number, position: number): unknown {
  const choices = asArray(reply.choices).filter(isObject);
  return choices.find((choice) => choice.index === index) ?? choices[position];
}

const callPart = (call: ToolCall): Json => ({
  functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: parseArguments(call.arguments) },
});

/** A candidate; `content` only when it has parts (Gemini sends none rather than an empty text). */
function candidate(index: number, parts: Json[], finish?: string | null): Json {
  return {
    ...(parts.length ? { content: { role: "model", parts } } : {}),
    ...(finish === undefined ? {} : { finishReason: finishReason(finish) }),
    index,
  };
}

/**
 * An OpenAI reply, whole or streamed, as a GenerateContentResponse: one candidate per choice (a
 * request for candidateCount > 1 went up as n), the reasoning as `thought` parts when the client
 * asked for thoughts.
 */
export function geminiReplyCodec(options: { thoughts: boolean }): ReplyCodec {
  return {
    convertReply(reply, usage, requestModel) {
      const choices = readCompletions(reply);
      const candidates = choices.map((parts, position) => {
        const content: Json[] = [];
        if (options.thoughts && parts.reasoning) content.push({ text: parts.reasoning, thought: true });
        if (parts.text) content.push({ text: parts.text });
        content.push(...parts.toolCalls.map(callPart));
        const logprobs = logprobsResult(rawChoice(reply, parts.index, position));
        return {
          ...candidate(parts.index, content, parts.finishReason),
          ...(logprobs ? { logprobsResult: logprobs } : {}),
        };
      });
      return {
        candidates,
        usageMetadata: usageMetadata(usage),
        modelVersion: requestModel,
        responseId: choices[0]?.id ?? "",
      };
    },
    createStreamWriter: (requestModel) => new GeminiStreamWriter(requestModel, options.thoughts),
  };
}

/** One choice's stream state: the tool call being gathered, and how the choice finished. */
type ChoiceState = { call?: ToolCall & { index: number }; finish?: string };

/**
 * OpenAI chunks → Gemini SSE chunks: each text (or thought) delta one chunk. Gemini sends a
 * function call whole, never in pieces, so a call's argument fragments are gathered and the call
 * goes out as soon as it is complete — when the next call starts or its choice finishes — not
 * all at the end. The last chunk carries the finish reasons and the usage billed.
 */
class GeminiStreamWriter implements NativeStreamWriter {
  private responseId = "";
  private readonly choices = new Map<number, ChoiceState>();

  constructor(
    private readonly requestModel: string,
    private readonly thoughts: boolean,
  ) {}

  private frame(candidates: Json[], usage?: Usage): string {
    return sseFrame({
      candidates,
      ...(usage ? { usageMetadata: usageMetadata(usage) } : {}),
      modelVersion: this.requestModel,
      responseId: this.responseId,
    });
  }

  private state(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (!state) this.choices.set(index, (state = {}));
    return state;
  }

  /** The gathered call of a choice, as a part, once complete (and forgotten). */
  private takeCall(state: ChoiceState): Json[] {
    const call = state.call;
    state.call = undefined;
    return call ? [callPart(call)] : [];
  }

  chunk(chunk: Json): string {
    let frames = "";
    for (const delta of readChunkChoices(chunk)) {
      if (delta.id && !this.responseId) this.responseId = delta.id;
      const state = this.state(delta.index);
      const parts: Json[] = [];
      if (this.thoughts && delta.reasoning) parts.push({ text: delta.reasoning, thought: true });
      if (delta.text) parts.push({ text: delta.text });
      for (const fragment of delta.toolCalls) {
        if (state.call && state.call.index !== fragment.index) parts.push(...this.takeCall(state));
        if (state.call) state.call.arguments += fragment.arguments ?? "";
        else
          state.call = {
            index: fragment.index,
            id: fragment.id ?? "",
            name: fragment.name ?? "",
            arguments: fragment.arguments ?? "",
          };
      }
      if (delta.finishReason) {
        state.finish = delta.finishReason;
        parts.push(...this.takeCall(state));
      }
      if (parts.length) frames += this.frame([candidate(delta.index, parts)]);
    }
    return frames;
  }

  close(billed: Usage, error?: UpstreamError): string {
    if (error) return sseFrame(googleErrorBody(500, error.message));
    if (this.choices.size === 0) this.choices.set(0, {});
    const last = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => candidate(index, this.takeCall(state), state.finish ?? "stop"));
    return this.frame(last, billed);
  }
}
