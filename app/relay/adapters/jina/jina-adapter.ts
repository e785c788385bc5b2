import { createCompatibleAdapter } from "../openai-compatible/compatible-adapter";
import { parseOpenAiError } from "../shared/openai-errors";
import type { UpstreamError } from "../types";

/** Jina answers `{"detail":"…"}` (FastAPI) for most errors. */
export function parseJinaError(status: number, text: string): UpstreamError {
  try {
    const parsed = JSON.parse(text) as { detail?: unknown };
    if (typeof parsed.detail === "string")
      return { message: parsed.detail, type: status === 401 ? "authentication_error" : "upstream_error", code: null };
    if (Array.isArray(parsed.detail))
      return { message: JSON.stringify(parsed.detail).slice(0, 500), type: "invalid_request_error", code: null };
  } catch {}
  return parseOpenAiError(status, text);
}

/**
 * Jina (type 38): embeddings on the OpenAI wire and rerank in the very shape the gateway's own
 * /v1/rerank takes (model, query, documents, top_n), so both pass through. No chat.
 */
export const jinaAdapter = createCompatibleAdapter({
  defaultBase: "https://api.jina.ai",
  name: "Jina",
  modes: ["embeddings", "rerank"],
  modelsPath: null,
  parseError: parseJinaError,
});
