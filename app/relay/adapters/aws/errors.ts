import type { UpstreamError } from "../types";

const EXCEPTION_BY_STATUS: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/**
 * Bedrock errors: `{"message":"…"}` (or `Message`), the exception's name in the x-amzn-ErrorType
 * header (not seen here), so the type is named after the status as Bedrock documents it.
 */
export function parseBedrockError(status: number, text: string): UpstreamError {
  const type = EXCEPTION_BY_STATUS[status] ?? "upstream_error";
  try {
    const parsed = JSON.parse(text) as { message?: unknown; Message?: unknown } | null;
    const message = parsed?.message ?? parsed?.Message;
    if (typeof message === "string" && message) return { message, type, code: type === "upstream_error" ? null : type };
  } catch {}
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
