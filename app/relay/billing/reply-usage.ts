import type { RelayMode } from "../adapters/types";
import { countCompletionText, countText } from "../stream/token-counter";
import type { Usage } from "./pricing";

export type ReplyBilling = { usage?: Usage; countedCompletion: number };

type AudioReply = { text?: unknown; usage?: { type?: string; input_tokens?: number; output_tokens?: number } };
type RerankReply = { usage?: { total_tokens?: number; prompt_tokens?: number }; meta?: { billed_units?: { input_tokens?: number } } };

/**
 * What a non-stream reply bills, endpoint by endpoint: the upstream's own usage in the shape that
 * endpoint reports it, else tokens counted from the reply. Without this, transcriptions (whose
 * `usage` is absent, or counts seconds) and rerank (which reports only `total_tokens`) were free.
 */
export function replyUsage(mode: RelayMode, body: string | Buffer, reported: Usage | undefined): ReplyBilling {
  const text = () => (typeof body === "string" ? body : body.toString("utf8"));
  if (mode === "transcriptions" || mode === "translations") return audioTextUsage(text());
  if (mode === "rerank") return rerankUsage(text());
  if (reported) return { usage: reported, countedCompletion: 0 };
  return { countedCompletion: countCompletionText(text()) };
}

/** Transcripts: token usage when the model reports it (gpt-4o-transcribe), else the transcript's tokens as completion. */
function audioTextUsage(text: string): ReplyBilling {
  let reply: AudioReply | undefined;
  try {
    reply = JSON.parse(text) as AudioReply;
  } catch {
    // text, srt and vtt replies are plain text.
    return { countedCompletion: countText(text) };
  }
  const usage = reply?.usage;
  if (usage && usage.type !== "duration" && (usage.input_tokens !== undefined || usage.output_tokens !== undefined)) {
    return { usage: { prompt_tokens: usage.input_tokens ?? 0, completion_tokens: usage.output_tokens ?? 0 }, countedCompletion: 0 };
  }
  return { countedCompletion: typeof reply?.text === "string" ? countText(reply.text) : 0 };
}

/** Rerank (Jina/Xinference `usage.total_tokens`, Cohere `meta.billed_units.input_tokens`): all of it is input. */
function rerankUsage(text: string): ReplyBilling {
  try {
    const reply = JSON.parse(text) as RerankReply;
    const input = reply.usage?.total_tokens ?? reply.usage?.prompt_tokens ?? reply.meta?.billed_units?.input_tokens;
    if (typeof input === "number" && input > 0) return { usage: { prompt_tokens: input, completion_tokens: 0 }, countedCompletion: 0 };
  } catch {}
  return { countedCompletion: 0 };
}
