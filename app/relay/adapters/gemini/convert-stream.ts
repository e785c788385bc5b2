import { randomBytes } from "node:crypto";
import type { StreamStep, StreamTranslator } from "../types";
import {
  mapGeminiFinishReason,
  parseGeminiUsage,
  shownUsage,
  toolCallId,
  type GeminiResponse,
} from "./convert-response";

/**
 * Gemini `alt=sse` events → OpenAI chat.completion.chunk JSON. Each event is a whole
 * GenerateContentResponse holding only the new parts; there is no [DONE] (the body's close ends
 * the stream). usageMetadata repeats on most events with the running counts: the usage is taken
 * when a candidate finishes (or from a trailing usage-only event), so the bill is the final count.
 */
export function createGeminiStreamTranslator(requestModel: string, forwardUsage: boolean): StreamTranslator {
  const id = `chatcmpl-${randomBytes(12).toString("hex")}`;
  const created = Math.floor(Date.now() / 1000);
  const started = new Set<number>();
  const toolCounts = new Map<number, number>();
  let finished = false;
  const chunk = (index: number, delta: Record<string, unknown>, finishReason: string | null = null) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model: requestModel,
      choices: [{ index, delta, logprobs: null, finish_reason: finishReason }],
    });

  return {
    push(_event, data): StreamStep {
      let payload: GeminiResponse & { error?: { message?: string; status?: string; code?: unknown } };
      try {
        payload = JSON.parse(data) as typeof payload;
      } catch {
        return { chunks: [] };
      }
      if (!payload || typeof payload !== "object") return { chunks: [] };
      if (payload.error)
        return {
          chunks: [],
          error: {
            message: payload.error.message ?? "upstream stream error",
            type: payload.error.status ?? "upstream_error",
            code: payload.error.status ?? null,
          },
        };
      const chunks: string[] = [];
      let text = "";
      let finishing = false;
      if (!payload.candidates?.length && payload.promptFeedback?.blockReason) {
        chunks.push(chunk(0, { role: "assistant", content: "" }, "content_filter"));
        finishing = true;
      }
      (payload.candidates ?? []).forEach((candidate, i) => {
        const index = candidate.index ?? i;
        if (!started.has(index)) {
          started.add(index);
          chunks.push(chunk(index, { role: "assistant", content: "" }));
        }
        for (const part of candidate.content?.parts ?? []) {
          if (typeof part.text === "string" && part.text) {
            chunks.push(chunk(index, part.thought ? { reasoning_content: part.text } : { content: part.text }));
            text += part.text;
          } else if (part.functionCall) {
            const n = toolCounts.get(index) ?? 0;
            toolCounts.set(index, n + 1);
            const args = JSON.stringify(part.functionCall.args ?? {});
            // Gemini sends a call whole: one delta carries its name and all its arguments.
            chunks.push(
              chunk(index, {
                tool_calls: [
                  {
                    index: n,
                    id: toolCallId(part.functionCall.id),
                    type: "function",
                    function: { name: part.functionCall.name ?? "", arguments: args },
                  },
                ],
              }),
            );
            text += args;
          }
        }
        const reason = mapGeminiFinishReason(candidate.finishReason, (toolCounts.get(index) ?? 0) > 0);
        if (reason) {
          chunks.push(chunk(index, {}, reason));
          finishing = true;
        }
      });
      const usageOnly = !payload.candidates?.length && !finishing && finished;
      if ((finishing || usageOnly) && payload.usageMetadata) {
        finished = true;
        const parsed = parseGeminiUsage(payload.usageMetadata);
        if (parsed.usage && forwardUsage)
          chunks.push(
            JSON.stringify({
              id,
              object: "chat.completion.chunk",
              created,
              model: requestModel,
              choices: [],
              usage: shownUsage(parsed),
            }),
          );
        return { chunks, text, usage: parsed.usage, usageNote: parsed.usageNote };
      }
      if (finishing) finished = true;
      return { chunks, text };
    },
    // There is no closing event: a body that closes before any candidate finished was cut short.
    finished: () => finished,
  };
}
