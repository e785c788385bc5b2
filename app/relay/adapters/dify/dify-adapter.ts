import { parseCounts, type ParsedUsage } from "../../billing/usage-parse";
import { clientWantsUsage } from "../shared/client-usage";
import { parseOpenAiError } from "../shared/openai-errors";
import { channelBase, requireMode } from "../shared/channel-base";
import { chatCompletion, chunkWriter, messagesOf, randomId, textOf } from "../shared/openai-shapes";
import type { Adapter, StreamStep, StreamTranslator, UpstreamError } from "../types";

type DifyUsage = { prompt_tokens?: unknown; completion_tokens?: unknown };
type DifyEvent = {
  event?: unknown;
  answer?: unknown;
  message_id?: unknown;
  metadata?: { usage?: DifyUsage };
  status?: unknown;
  code?: unknown;
  message?: unknown;
};

/**
 * OpenAI chat → Dify chat-messages. Dify keeps the conversation itself; the gateway does not
 * track Dify conversation ids, so each request is a new conversation whose `query` is the last
 * user message (the Dify app's own prompt and variables supply the rest). `user` is the
 * client's `user` field, else a fixed name.
 */
export function toDifyRequest(body: Record<string, unknown>, stream: boolean): Record<string, unknown> {
  const messages = messagesOf(body);
  let query = "";
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") {
      query = textOf(messages[i]!.content);
      break;
    }
  }
  const user = typeof body.user === "string" && body.user ? body.user : "switchyard";
  return { inputs: {}, query, response_mode: stream ? "streaming" : "blocking", user };
}

function difyUsage(event: DifyEvent): ParsedUsage {
  const usage = event.metadata?.usage;
  if (!usage || typeof usage !== "object") return {};
  return parseCounts({
    prompt_tokens: { key: "metadata.usage.prompt_tokens", value: usage.prompt_tokens },
    completion_tokens: { key: "metadata.usage.completion_tokens", value: usage.completion_tokens },
  });
}

/** Dify's `{code, message, status}` errors (HTTP and the stream's `error` event). */
export function parseDifyError(status: number, text: string): UpstreamError {
  try {
    const parsed = JSON.parse(text) as DifyEvent;
    if (typeof parsed.message === "string" && parsed.message) {
      const type = status === 401 ? "authentication_error" : "upstream_error";
      return { message: parsed.message, type, code: typeof parsed.code === "string" ? parsed.code : null };
    }
  } catch {}
  return parseOpenAiError(status, text);
}

/** Dify's SSE: every event is `data: {event: …}` — message/agent_message carry text, message_end the usage. */
function createDifyStreamTranslator(model: string, forwardUsage: boolean): StreamTranslator {
  const chunks = chunkWriter(randomId("chatcmpl-"), model);
  let started = false;
  const opening = () => {
    if (started) return [];
    started = true;
    return [chunks.delta({ role: "assistant", content: "" })];
  };
  return {
    push(_event, data): StreamStep {
      let event: DifyEvent;
      try {
        event = JSON.parse(data) as DifyEvent;
      } catch {
        return { chunks: [] };
      }
      switch (event.event) {
        case "message":
        case "agent_message": {
          const text = typeof event.answer === "string" ? event.answer : "";
          return { chunks: [...opening(), chunks.delta({ content: text })], text };
        }
        case "message_end": {
          const parsed = difyUsage(event);
          const out = [...opening(), chunks.delta({}, "stop")];
          if (forwardUsage && parsed.usage) out.push(chunks.usage(parsed.usage));
          return { chunks: out, ...parsed, done: true };
        }
        case "error": {
          const message = typeof event.message === "string" && event.message ? event.message : "Dify stream error";
          return {
            chunks: [],
            error: { message, type: "upstream_error", code: typeof event.code === "string" ? event.code : null },
            done: true,
          };
        }
        default:
          // workflow_started, node_*, agent_thought, message_file, ping, tts_message…
          return { chunks: [] };
      }
    },
  };
}

/** Dify (type 37): an app's chat-messages endpoint with its app key as Bearer. */
export const difyAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx) {
    requireMode(ctx, ["chat"], "Dify");
    const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${ctx.key}` };
    if (ctx.stream) headers.Accept = "text/event-stream";
    return {
      url: `${channelBase(ctx.channel, "https://api.dify.ai")}/v1/chat-messages`,
      headers,
      body: JSON.stringify(toDifyRequest(ctx.body, ctx.stream)),
    };
  },
  convertResponse(ctx, raw) {
    let reply: DifyEvent;
    try {
      reply = JSON.parse(raw.toString("utf8")) as DifyEvent;
    } catch {
      return { body: raw };
    }
    const parsed = difyUsage(reply);
    const id = `chatcmpl-${typeof reply.message_id === "string" ? reply.message_id : randomId("")}`;
    const body = chatCompletion({
      id,
      model: ctx.requestModel,
      content: typeof reply.answer === "string" ? reply.answer : "",
      finishReason: "stop",
      usage: parsed.usage,
    });
    return { body: JSON.stringify(body), ...parsed };
  },
  createStreamTranslator: (ctx) => createDifyStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseDifyError,
};
