import type { UpstreamError } from "../types";

type GoogleError = { error?: { code?: unknown; message?: unknown; status?: unknown } };

/**
 * Google's error body `{error:{code, message, status}}` (also sent wrapped in an array by the
 * non-SSE stream endpoint) → the gateway's upstream error; the HTTP status goes to the client as
 * it came. A body that is not JSON is summarised by status.
 */
export function parseGoogleError(status: number, text: string): UpstreamError {
  try {
    let parsed = JSON.parse(text) as GoogleError | GoogleError[];
    if (Array.isArray(parsed)) parsed = parsed[0] ?? {};
    const error = parsed?.error;
    if (error && typeof error.message === "string" && error.message) {
      const code = typeof error.status === "string" && error.status ? error.status : null;
      return { message: error.message, type: code ?? "upstream_error", code };
    }
  } catch {}
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
