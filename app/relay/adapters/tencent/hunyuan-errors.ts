import type { UpstreamError } from "../types";
import { asRecord, parseJson } from "../shared/openai-shapes";

/**
 * Tencent Cloud answers every error with status 200 and `{Response:{Error:{Code, Message}}}`.
 * AuthFailure.* is a rejected credential (SecretId unknown, signature mismatch), the limit codes
 * are 429, parameter codes 400, anything else a failing service.
 */
export function hunyuanStatusOf(code: string): number {
  if (code.startsWith("AuthFailure")) return 401;
  if (code.startsWith("UnauthorizedOperation")) return 403;
  if (code.startsWith("RequestLimitExceeded") || code.startsWith("LimitExceeded")) return 429;
  if (
    code.startsWith("InvalidParameter") ||
    code.startsWith("MissingParameter") ||
    code.startsWith("UnsupportedOperation")
  )
    return 400;
  return 500;
}

function errorOf(json: unknown): { Code?: unknown; Message?: unknown } | undefined {
  const error = asRecord(asRecord(json).Response).Error;
  return error && typeof error === "object" ? (error as { Code?: unknown; Message?: unknown }) : undefined;
}

export function hunyuanErrorStatus(json: unknown): number | undefined {
  const error = errorOf(json);
  return error ? hunyuanStatusOf(String(error.Code ?? "")) : undefined;
}

export function parseHunyuanError(status: number, text: string): UpstreamError {
  const error = errorOf(parseJson(text));
  if (error && typeof error.Code === "string") {
    const message = typeof error.Message === "string" && error.Message ? error.Message : error.Code;
    return {
      message,
      type: error.Code.startsWith("AuthFailure") ? "authentication_error" : "tencent_error",
      code: error.Code,
    };
  }
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
