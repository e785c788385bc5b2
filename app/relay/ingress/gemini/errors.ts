import type { ServerResponse } from "node:http";
import type { UpstreamError } from "../../adapters/types";
import { inCallersLanguage } from "../../errors.server";
import { withCors } from "../../http.server";
import type { RelayFailure } from "../../relay-error";

/** Google's canonical status name for an HTTP status (docs/wire-formats/gemini.md). */
export function googleStatus(status: number): string {
  switch (status) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 413:
      return "INVALID_ARGUMENT";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

export function googleErrorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, status: googleStatus(status) } });
}

/** `{error:{code,message,status}}`: what the genai SDK reads into its ApiError. */
export function sendGeminiError(res: ServerResponse, failure: RelayFailure, requestId: string): void {
  const body = googleErrorBody(failure.status, inCallersLanguage(res, failure.message));
  res.writeHead(
    failure.status,
    withCors({
      ...failure.headers,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "X-Oneapi-Request-Id": requestId,
    }),
  );
  res.end(body);
}

/** A Gemini upstream's error body → the gateway's upstream error. */
export function parseGeminiError(status: number, text: string): UpstreamError {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown; status?: unknown } } | null;
    const error = Array.isArray(parsed) ? (parsed[0] as typeof parsed)?.error : parsed?.error;
    if (error && typeof error.message === "string" && error.message) {
      const kind = typeof error.status === "string" && error.status ? error.status : null;
      return { message: error.message, type: kind ?? "upstream_error", code: kind };
    }
  } catch {}
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
