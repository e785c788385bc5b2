import { parseOpenAiUsage } from "../../billing/usage-parse";
import {
  asRecord,
  plainChatCompletion,
  chunkWriter,
  numberField,
  parseJson,
  plainMessages,
  replyId,
} from "../shared/openai-shapes";
import type { StreamDecoder, StreamEvent, StreamStep, StreamTranslator } from "../types";

/**
 * Zhipu v3 (model-api invoke / sse-invoke). v3 has no system role: a system turn becomes a user
 * turn answered "好的" by the assistant, as the reference sends it. `incremental` makes the
 * stream's `add` events carry deltas.
 */
export function toZhipuV3Request(body: Record<string, unknown>, stream: boolean): Record<string, unknown> {
  const prompt: { role: string; content: string }[] = [];
  for (const message of plainMessages(body)) {
    if (message.role === "system")
      prompt.push({ role: "user", content: message.content }, { role: "assistant", content: "好的" });
    else prompt.push({ role: message.role === "assistant" ? "assistant" : "user", content: message.content });
  }
  const request: Record<string, unknown> = { prompt };
  const temperature = numberField(body, "temperature");
  const topP = numberField(body, "top_p");
  if (temperature !== undefined) request.temperature = temperature;
  if (topP !== undefined) request.top_p = topP;
  if (stream) request.incremental = true;
  return request;
}

/** v3 returns each choice's content as a JSON string literal (quoted, escaped): read it as the text it encodes. */
export function unquote(content: unknown): string {
  if (typeof content !== "string") return "";
  if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) {
    const parsed = parseJson(content);
    if (typeof parsed === "string") return parsed;
    return content.slice(1, -1);
  }
  return content;
}

export function fromZhipuV3Response(raw: Buffer, requestModel: string) {
  const data = asRecord(asRecord(parseJson(raw)).data);
  const choices = Array.isArray(data.choices) ? (data.choices as unknown[]) : [];
  const content = choices.map((c) => unquote(asRecord(c).content)).join("");
  return plainChatCompletion(
    replyId("chatcmpl-", data.task_id),
    requestModel,
    content,
    "stop",
    parseOpenAiUsage(data.usage),
  );
}

/**
 * v3's SSE carries a `meta:` line (usage on `finish`) that generic SSE parsers drop, and its
 * `data:` lines are raw text (several lines = newlines in the text). This decoder keeps both:
 * each event's data goes on as JSON `{data, meta}`.
 */
export function createZhipuV3Decoder(): StreamDecoder {
  let buffered = "";
  const decoder = new TextDecoder();
  const parseBlock = (block: string): StreamEvent | undefined => {
    let event: string | undefined;
    const data: string[] = [];
    let meta: string | undefined;
    for (const line of block.split("\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      let value = line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "meta") meta = value;
    }
    if (!event && data.length === 0 && meta === undefined) return undefined;
    return {
      event,
      data: JSON.stringify({ data: data.join("\n"), meta: meta === undefined ? undefined : parseJson(meta) }),
    };
  };
  return {
    feed(chunk) {
      buffered += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, "\n");
      const events: StreamEvent[] = [];
      let end: number;
      while ((end = buffered.indexOf("\n\n")) >= 0) {
        const parsed = parseBlock(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        if (parsed) events.push(parsed);
      }
      return events;
    },
  };
}

export function createZhipuV3StreamTranslator(requestModel: string, forwardUsage: boolean): StreamTranslator {
  const write = chunkWriter(replyId("chatcmpl-", undefined), requestModel);
  let started = false;
  const opening = () => (started ? [] : ((started = true), [write.delta({ role: "assistant", content: "" })]));
  return {
    push(event, data): StreamStep {
      const payload = asRecord(parseJson(data));
      const text = typeof payload.data === "string" ? payload.data : "";
      switch (event) {
        case "add":
          return { chunks: [...opening(), write.delta({ content: text })], text };
        case "finish": {
          const parsed = parseOpenAiUsage(asRecord(payload.meta).usage);
          const chunks = [...opening(), ...(text ? [write.delta({ content: text })] : []), write.delta({}, "stop")];
          if (forwardUsage && parsed.usage) chunks.push(write.usage(parsed.usage));
          return { chunks, ...parsed, text, done: true };
        }
        case "error":
        case "interrupted":
          return { chunks: [], error: { message: text || "智谱流式响应出错", type: "zhipu_error", code: event } };
        default:
          return { chunks: [] };
      }
    },
  };
}
