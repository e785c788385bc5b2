import { parseCounts, readCount, type ParsedUsage } from "../../billing/usage-parse";
import { isObject } from "../json-shape";

/**
 * Gemini's usageMetadata: the prompt is `promptTokenCount`; the completion is the candidates'
 * tokens plus the thinking tokens (billed as output, and counted in totalTokenCount).
 */
export function parseGeminiUsage(metadata: unknown): ParsedUsage {
  if (!isObject(metadata)) return {};
  const parsed = parseCounts({
    prompt_tokens: { key: "promptTokenCount", value: metadata.promptTokenCount },
    completion_tokens: { key: "candidatesTokenCount", value: metadata.candidatesTokenCount ?? 0 },
  });
  if (!parsed.usage) return parsed;
  const thoughts = readCount(metadata.thoughtsTokenCount);
  if (typeof thoughts === "number") parsed.usage.completion_tokens += thoughts;
  else if (thoughts !== undefined) return parseCounts({ prompt_tokens: { key: "thoughtsTokenCount", value: metadata.thoughtsTokenCount }, completion_tokens: { key: "", value: undefined } });
  return parsed;
}
