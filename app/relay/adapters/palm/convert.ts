import { randomBytes } from "node:crypto";
import type { StreamDecoder, StreamStep, StreamTranslator } from "../types";

/**
 * PaLM 2 chat (`v1beta2 …:generateMessage`): system turns become the prompt's `context`, the rest
 * its `messages` (authors "0" for the user, "1" for the model, as the reference sends them).
 * PaLM neither streams nor reports usage: tokens are counted, and a streamed request gets the
 * whole reply as one delta (see createWholeBodyDecoder).
 */
type OpenAiMessage = { role?: string; content?: string | { type?: string; text?: string }[] | null };
export type PalmReply = {
  candidates?: { author?: string; content?: string }[];
  filters?: { reason?: string; message?: string }[];
};

const textOf = (content: OpenAiMessage["content"]) =>
  typeof content === "string"
    ? content
    : (content ?? []).map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("");

/** PaLM had one chat model; names that are not a chat-bison version (the catalogue's "PaLM-2") mean it. */
export function palmModel(model: string): string {
  return model.startsWith("chat-bison") ? model : "chat-bison-001";
}

export function toPalmRequest(body: Record<string, unknown>): Record<string, unknown> {
  const context: string[] = [];
  const messages: { author: string; content: string }[] = [];
  for (const message of (body.messages as OpenAiMessage[] | undefined) ?? []) {
    const text = textOf(message.content);
    if (message.role === "system" || message.role === "developer") context.push(text);
    else if (text) messages.push({ author: message.role === "assistant" ? "1" : "0", content: text });
  }
  const request: Record<string, unknown> = {
    prompt: { ...(context.length ? { context: context.join("\n") } : {}), messages },
  };
  if (typeof body.temperature === "number") request.temperature = body.temperature;
  if (typeof body.top_p === "number") request.topP = body.top_p;
  if (typeof body.top_k === "number") request.topK = body.top_k;
  if (typeof body.n === "number" && body.n > 1) request.candidateCount = Math.min(body.n, 8);
  return request;
}

/** The reply's candidates as OpenAI choices; no candidate and a filter means the content was blocked. */
function choicesOf(reply: PalmReply) {
  const candidates = reply.candidates ?? [];
  if (candidates.length === 0) return [{ content: "", finish: reply.filters?.length ? "content_filter" : "stop" }];
  return candidates.map((c) => ({ content: c.content ?? "", finish: "stop" }));
}

export function toOpenAiFromPalm(reply: PalmReply, requestModel: string) {
  return {
    id: `chatcmpl-${randomBytes(12).toString("hex")}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: requestModel,
    choices: choicesOf(reply).map((c, index) => ({
      index,
      message: { role: "assistant", content: c.content },
      logprobs: null,
      finish_reason: c.finish,
    })),
  };
}

/** A streamed request: the reply is one JSON document, turned into one event once it is all in. */
export function createWholeBodyDecoder(): StreamDecoder {
  const pieces: Buffer[] = [];
  let done = false;
  return {
    feed(chunk) {
      if (done) return [];
      pieces.push(chunk);
      // Only a read ending in "}" (whitespace aside) can complete the document: others are not parsed.
      if (!/\}\s*$/.test(chunk.toString("latin1", Math.max(0, chunk.length - 16)))) return [];
      const text = Buffer.concat(pieces).toString("utf8");
      try {
        JSON.parse(text);
      } catch {
        return [];
      }
      done = true;
      return [{ data: text }];
    },
  };
}

export function createPalmStreamTranslator(requestModel: string): StreamTranslator {
  const id = `chatcmpl-${randomBytes(12).toString("hex")}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model: requestModel,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
    });
  return {
    push(_event, data): StreamStep {
      let reply: PalmReply;
      try {
        reply = JSON.parse(data) as PalmReply;
      } catch {
        return { chunks: [] };
      }
      const chunks: string[] = [];
      let text = "";
      choicesOf(reply).forEach((c, index) => {
        chunks.push(chunk(index, { role: "assistant", content: c.content }), chunk(index, {}, c.finish));
        text += c.content;
      });
      return { chunks, text, done: true };
    },
  };
}
