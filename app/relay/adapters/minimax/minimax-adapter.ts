import { parseOpenAiUsage, type ParsedUsage } from "../../billing/usage-parse";
import { openAiPayload } from "../shared/openai-payload";
import { clientWantsUsage } from "../shared/client-usage";
import { channelBase, requireMode } from "../shared/channel-base";
import type { Adapter, StreamStep, StreamTranslator } from "../types";
import { minimaxFailure, parseMinimaxError } from "./minimax-errors";

type MiniMaxChoice = {
  index?: number;
  delta?: Record<string, unknown>;
  message?: Record<string, unknown>;
  finish_reason?: unknown;
};
type MiniMaxReply = {
  id?: unknown;
  created?: unknown;
  object?: unknown;
  choices?: MiniMaxChoice[];
  usage?: unknown;
  base_resp?: unknown;
};

const FINISH = new Set(["stop", "length", "tool_calls", "content_filter"]);
const finishOf = (reason: unknown) => (typeof reason === "string" ? (FINISH.has(reason) ? reason : "stop") : null);

/** MiniMax's reply without its envelope: OpenAI's fields only, naming the client's model. */
function toOpenAiReply(reply: MiniMaxReply, model: string) {
  const choices = (reply.choices ?? []).map((c, index) => ({
    index: c.index ?? index,
    message: c.message ?? { role: "assistant", content: "" },
    logprobs: null,
    finish_reason: finishOf(c.finish_reason) ?? "stop",
  }));
  return { id: reply.id, object: "chat.completion", created: reply.created, model, choices, usage: reply.usage };
}

/**
 * MiniMax streams OpenAI-like chunks, but its last event repeats the whole answer as `message`
 * (object "chat.completion") with the usage, and errors come as a chunk with base_resp. The
 * deltas pass on; the summary becomes the finishing chunk (its text is not sent twice).
 */
function createMinimaxStreamTranslator(model: string, forwardUsage: boolean): StreamTranslator {
  return {
    push(_event, data): StreamStep {
      if (data === "[DONE]") return { chunks: [], done: true };
      let reply: MiniMaxReply;
      try {
        reply = JSON.parse(data) as MiniMaxReply;
      } catch {
        return { chunks: [] };
      }
      const failure = minimaxFailure(reply);
      if (failure) return { chunks: [], error: failure.error };
      const parsed: ParsedUsage = reply.usage == null ? {} : parseOpenAiUsage(reply.usage);
      const shell = { id: reply.id, object: "chat.completion.chunk", created: reply.created, model };
      const chunks: string[] = [];
      let text = "";
      for (const choice of reply.choices ?? []) {
        if (choice.delta) {
          text += typeof choice.delta.content === "string" ? choice.delta.content : "";
          chunks.push(
            JSON.stringify({
              ...shell,
              choices: [
                {
                  index: choice.index ?? 0,
                  delta: choice.delta,
                  logprobs: null,
                  finish_reason: finishOf(choice.finish_reason),
                },
              ],
            }),
          );
        } else if (choice.message) {
          chunks.push(
            JSON.stringify({
              ...shell,
              choices: [
                {
                  index: choice.index ?? 0,
                  delta: {},
                  logprobs: null,
                  finish_reason: finishOf(choice.finish_reason) ?? "stop",
                },
              ],
            }),
          );
        }
      }
      if (forwardUsage && parsed.usage) chunks.push(JSON.stringify({ ...shell, choices: [], usage: reply.usage }));
      return { chunks, ...parsed, text };
    },
  };
}

/** MiniMax (type 35): chat at /v1/text/chatcompletion_v2 (OpenAI-like body), Bearer key. */
export const minimaxAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx) {
    requireMode(ctx, ["chat"], "MiniMax");
    const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${ctx.key}` };
    if (ctx.stream) headers.Accept = "text/event-stream";
    return {
      url: `${channelBase(ctx.channel, "https://api.minimax.chat")}/v1/text/chatcompletion_v2`,
      headers,
      body: openAiPayload(ctx, false),
    };
  },
  convertResponse(ctx, raw) {
    let reply: MiniMaxReply;
    try {
      reply = JSON.parse(raw.toString("utf8")) as MiniMaxReply;
    } catch {
      return { body: raw };
    }
    const failure = minimaxFailure(reply);
    if (failure) return { body: raw, failure };
    return { body: JSON.stringify(toOpenAiReply(reply, ctx.requestModel)), ...parseOpenAiUsage(reply.usage) };
  },
  createStreamTranslator: (ctx) => createMinimaxStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseMinimaxError,
};
