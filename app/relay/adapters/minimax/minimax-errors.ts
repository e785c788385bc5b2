import { parseOpenAiError } from "../shared/openai-errors";
import type { ReplyFailure, UpstreamError } from "../types";

type BaseResp = { status_code?: unknown; status_msg?: unknown };

/**
 * MiniMax reports most failures as HTTP 200 with `base_resp.status_code` ≠ 0. Each code is given
 * the HTTP status it means, so retry and auto-disable treat it as they would the HTTP error.
 */
function statusFor(code: number): { status: number; type: string } {
  switch (code) {
    case 1004:
    case 2049:
      return { status: 401, type: "authentication_error" };
    case 1008:
      return { status: 403, type: "insufficient_quota" };
    case 1002:
    case 1039:
      return { status: 429, type: "rate_limit_error" };
    case 1026:
    case 1027:
    case 2013:
      return { status: 400, type: "invalid_request_error" };
    default:
      return { status: 500, type: "upstream_error" };
  }
}

export function minimaxFailure(json: unknown): ReplyFailure | undefined {
  const base = json && typeof json === "object" ? (json as { base_resp?: BaseResp }).base_resp : undefined;
  const code = Number(base?.status_code ?? 0);
  if (!Number.isFinite(code) || code === 0) return undefined;
  const { status, type } = statusFor(code);
  const message = typeof base?.status_msg === "string" && base.status_msg ? base.status_msg : `MiniMax error ${code}`;
  return { status, error: { message, type, code: String(code) } };
}

export function parseMinimaxError(status: number, text: string): UpstreamError {
  try {
    const failure = minimaxFailure(JSON.parse(text));
    if (failure) return failure.error;
  } catch {}
  return parseOpenAiError(status, text);
}
