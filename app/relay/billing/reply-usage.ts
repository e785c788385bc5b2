import type { RelayMode } from "../adapters/types";
import { countCompletionText, countText } from "../stream/token-counter";
import type { Usage } from "./pricing";
import { parseCounts, type ParsedUsage, type UsageNote } from "./usage-parse";

export type ReplyBilling = { usage?: Usage; usageNote?: UsageNote; countedCompletion: number };

type AudioReply = { text?: unknown; usage?: { type?: unknown; input_tokens?: unknown; output_tokens?: unknown } };
type RerankReply = {
  usage?: { total_tokens?: unknown; prompt_tokens?: unknown };
  meta?: { billed_units?: { input_tokens?: unknown } };
};

/**
 * What a non-stream reply bills, endpoint by endpoint: the upstream's own usage in the shape that
 * endpoint reports it, else tokens counted from the reply. Without this, transcriptions (whose
 * `usage` is absent, or counts seconds) and rerank (which reports only `total_tokens`) were free.
 */
export function replyUsage(mode: RelayMode, body: string | Buffer, reported: ParsedUsage): ReplyBilling {
  const text = () => (typeof body === "string" ? body : body.toString("utf8"));
  if (mode === "transcriptions" || mode === "translations") return audioTextUsage(text());
  if (mode === "rerank") return rerankUsage(text());
  if (reported.usage) return { usage: reported.usage, usageNote: reported.usageNote, countedCompletion: 0 };
  return { usageNote: reported.usageNote, countedCompletion: countCompletionText(text()) };
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
  const usage = reply && typeof reply === "object" ? reply.usage : undefined;
  const counted = () => (typeof reply?.text === "string" ? countText(reply.text) : 0);
  if (usage && typeof usage === "object" && usage.type !== "duration") {
    const parsed = parseCounts({
      prompt_tokens: { key: "input_tokens", value: usage.input_tokens },
      completion_tokens: { key: "output_tokens", value: usage.output_tokens },
    });
    if (parsed.usage) return { usage: parsed.usage, countedCompletion: 0 };
    return { usageNote: parsed.usageNote, countedCompletion: counted() };
  }
  return { countedCompletion: counted() };
}

/** Rerank (Jina/Xinference `usage.total_tokens`, Cohere `meta.billed_units.input_tokens`): all of it is input. */
function rerankUsage(text: string): ReplyBilling {
  try {
    const reply = JSON.parse(text) as RerankReply | null;
    const [key, input] =
      reply?.usage?.total_tokens != null
        ? ["total_tokens", reply.usage.total_tokens]
        : reply?.usage?.prompt_tokens != null
          ? ["prompt_tokens", reply.usage.prompt_tokens]
          : ["billed_units.input_tokens", reply?.meta?.billed_units?.input_tokens];
    const parsed = parseCounts({
      prompt_tokens: { key, value: input },
      completion_tokens: { key: "", value: undefined },
    });
    if (parsed.usage && parsed.usage.prompt_tokens > 0) return { usage: parsed.usage, countedCompletion: 0 };
    if (parsed.usageNote) return { usageNote: parsed.usageNote, countedCompletion: 0 };
  } catch {}
  return { countedCompletion: 0 };
}
