import { chunkWriter, randomId } from "../shared/openai-shapes";
import type { StreamStep, StreamTranslator } from "../types";
import { cohereUsage, mapCohereFinish, type CohereMeta } from "./convert-response";

type CohereEvent = {
  event_type?: unknown;
  text?: unknown;
  finish_reason?: unknown;
  response?: { meta?: CohereMeta; text?: unknown };
  generation_id?: unknown;
};

/**
 * Cohere chat v1 stream (NDJSON): stream-start, text-generation {text}, stream-end
 * {finish_reason, response.meta.billed_units} → OpenAI chunks. An ERROR finish is an error.
 */
export function createCohereStreamTranslator(model: string, forwardUsage: boolean): StreamTranslator {
  const chunks = chunkWriter(randomId("chatcmpl-"), model);
  let started = false;
  const opening = () => {
    if (started) return [];
    started = true;
    return [chunks.delta({ role: "assistant", content: "" })];
  };
  return {
    push(_event, data): StreamStep {
      let event: CohereEvent;
      try {
        event = JSON.parse(data) as CohereEvent;
      } catch {
        return { chunks: [] };
      }
      switch (event.event_type) {
        case "stream-start":
          return { chunks: opening() };
        case "text-generation": {
          const text = typeof event.text === "string" ? event.text : "";
          return { chunks: [...opening(), chunks.delta({ content: text })], text };
        }
        case "stream-end": {
          if (event.finish_reason === "ERROR")
            return {
              chunks: [],
              error: {
                message: String(event.response?.text || "Cohere stream ended with an error"),
                type: "upstream_error",
                code: null,
              },
              done: true,
            };
          const parsed = cohereUsage(event.response?.meta);
          const out = [...opening(), chunks.delta({}, mapCohereFinish(event.finish_reason))];
          if (forwardUsage && parsed.usage) out.push(chunks.usage(parsed.usage));
          return { chunks: out, ...parsed, done: true };
        }
        default:
          return { chunks: [] };
      }
    },
  };
}
