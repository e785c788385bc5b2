import type { UpstreamError } from "../types";

/**
 * Anthropic error body → the gateway's upstream error: `{type:"error", error:{type, message}}`.
 * A body that is not JSON (e.g. a 413 from the edge) is summarised by status.
 */
export function parseAnthropicError(status: number, text: string): UpstreamError {
  try {
    const parsed = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } } | null;
    const error = parsed?.error;
    if (error && typeof error.message === "string" && error.message) {
      const type = typeof error.type === "string" && error.type ? error.type : "upstream_error";
      return { message: error.message, type, code: typeof error.type === "string" ? error.type : null };
    }
  } catch {}
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
