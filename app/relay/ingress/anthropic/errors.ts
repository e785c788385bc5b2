import type { ServerResponse } from "node:http";
import { inCallersLanguage } from "../../errors.server";
import { withCors } from "../../http.server";
import type { RelayFailure } from "../../relay-error";

/** The `error.type` Anthropic uses for a status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 503:
    case 529:
      return "overloaded_error";
    case 504:
      return "timeout_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

/**
 * `{type:"error", error:{type, message}, request_id}`: what the Anthropic SDK reads into its APIError.
 * The upstream's `request-id` header, when it sent one, is the one the SDK shows (decision 034).
 */
export function sendAnthropicError(res: ServerResponse, failure: RelayFailure, requestId: string): void {
  const body = JSON.stringify({
    type: "error",
    error: { type: anthropicErrorType(failure.status), message: inCallersLanguage(res, failure.message) },
    request_id: requestId,
  });
  res.writeHead(
    failure.status,
    withCors({
      "request-id": requestId,
      ...failure.headers,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "X-Oneapi-Request-Id": requestId,
    }),
  );
  res.end(body);
}
