import { parseOpenAiUsage, type ParsedUsage } from "../../billing/usage-parse";
import {
  asRecord,
  plainChatCompletion,
  chunkWriter,
  numberField,
  parseJson,
  plainMessages,
  replyId,
} from "../shared/openai-shapes";
import type { StreamStep, StreamTranslator, UpstreamError } from "../types";
import { SPARK_LAST_FRAME, sparkErrorOf } from "./spark-errors";

/** API version → the `domain` the chat parameter must name for it. */
const DOMAINS: Record<string, string> = {
  "v1.1": "general",
  "v2.1": "generalv2",
  "v3.1": "generalv3",
  "v3.5": "generalv3.5",
  "v4.0": "4.0Ultra",
};
export const DEFAULT_SPARK_VERSION = "v2.1";

/** The channel's `other` names the version; empty, a model named SparkDesk-vX.Y names it; else v2.1. */
export function sparkVersion(other: string, model: string): string {
  const configured = other.trim();
  if (configured) return configured;
  const named = /^SparkDesk-(v\d+\.\d+)$/i.exec(model);
  return named ? named[1]!.toLowerCase() : DEFAULT_SPARK_VERSION;
}

export function sparkDomain(version: string): string {
  return DOMAINS[version] ?? "generalv2";
}

export function toSparkFrame(body: Record<string, unknown>, appId: string, version: string): Record<string, unknown> {
  const chat: Record<string, unknown> = { domain: sparkDomain(version) };
  const temperature = numberField(body, "temperature");
  if (temperature !== undefined) chat.temperature = temperature;
  const maxTokens = numberField(body, "max_completion_tokens") ?? numberField(body, "max_tokens");
  if (maxTokens !== undefined) chat.max_tokens = maxTokens;
  const topK = numberField(body, "top_k");
  if (topK !== undefined) chat.top_k = topK;
  const header: Record<string, unknown> = { app_id: appId };
  if (typeof body.user === "string") header.uid = body.user.slice(0, 32);
  return {
    header,
    parameter: { chat },
    payload: { message: { text: plainMessages(body).map((m) => ({ role: m.role, content: m.content })) } },
  };
}

type Frame = {
  header?: { code?: unknown; message?: unknown; sid?: unknown; status?: unknown };
  payload?: { choices?: { status?: unknown; text?: { content?: unknown }[] }; usage?: { text?: unknown } };
};

function frameText(frame: Frame): string {
  return (frame.payload?.choices?.text ?? []).map((t) => (typeof t?.content === "string" ? t.content : "")).join("");
}

function frameUsage(frame: Frame): ParsedUsage {
  return frame.payload?.usage?.text === undefined ? {} : parseOpenAiUsage(frame.payload.usage.text);
}

/** A whole reply: the transport's JSON array of the WebSocket's frames. */
export function fromSparkFrames(raw: Buffer, requestModel: string) {
  let text = "";
  let usage: ParsedUsage = {};
  let sid: unknown;
  const frames = parseJson(raw);
  for (const item of Array.isArray(frames) ? frames : []) {
    const frame = asRecord(item) as Frame;
    sid ??= frame.header?.sid;
    text += frameText(frame);
    const parsed = frameUsage(frame);
    if (parsed.usage || parsed.usageNote) usage = parsed;
  }
  return plainChatCompletion(replyId("chatcmpl-", sid), requestModel, text, "stop", usage);
}

export function createSparkStreamTranslator(requestModel: string, forwardUsage: boolean): StreamTranslator {
  let write: ReturnType<typeof chunkWriter> | undefined;
  return {
    push(_event, data): StreamStep {
      const frame = asRecord(parseJson(data)) as Frame;
      const failure: UpstreamError | undefined = sparkErrorOf(frame);
      if (failure) return { chunks: [], error: failure };
      const chunks: string[] = [];
      if (!write) {
        write = chunkWriter(replyId("chatcmpl-", frame.header?.sid), requestModel);
        chunks.push(write.delta({ role: "assistant", content: "" }));
      }
      const text = frameText(frame);
      if (text) chunks.push(write.delta({ content: text }));
      const parsed = frameUsage(frame);
      if (frame.header?.status !== SPARK_LAST_FRAME) return { chunks, text, ...parsed };
      chunks.push(write.delta({}, "stop"));
      if (forwardUsage && parsed.usage) chunks.push(write.usage(parsed.usage));
      return { chunks, text, ...parsed, done: true };
    },
  };
}
