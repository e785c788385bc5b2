import type { UpstreamError } from "../types";
import { asRecord, parseJson } from "../shared/openai-shapes";

/** Access token invalid (110) or expired (111): the cached token is dropped and the call made once more. */
export const TOKEN_REJECTED_CODES = new Set([110, 111]);

/**
 * Baidu's error codes (`{error_code, error_msg}`, sent with status 200) → the status they mean:
 * 110/111/13/14 a rejected credential, 6 no permission, 4/17/18/19 and 336501/336502 limits,
 * 1/2/336100 a busy or broken service, the rest bad requests.
 */
export function baiduStatusOf(code: number): number {
  if (TOKEN_REJECTED_CODES.has(code) || code === 13 || code === 14) return 401;
  if (code === 6) return 403;
  if ([4, 17, 18, 19, 336501, 336502].includes(code)) return 429;
  if (code === 1 || code === 2 || code === 336100) return 500;
  return 400;
}

/** A 200 reply that is an error: the status it means (undefined: not an error). */
export function baiduErrorStatus(json: unknown): number | undefined {
  const code = asRecord(json).error_code;
  return typeof code === "number" && code !== 0 ? baiduStatusOf(code) : undefined;
}

export function baiduErrorCode(text: string | Buffer): number | undefined {
  const code = asRecord(parseJson(text)).error_code;
  return typeof code === "number" ? code : undefined;
}

/**
 * Chat/embedding errors `{error_code, error_msg}` and the OAuth token endpoint's
 * `{error:"invalid_client", error_description}` (a wrong API Key or Secret Key: the key will not
 * work again, so it is an authentication error, which auto-disable acts on).
 */
export function parseBaiduError(status: number, text: string): UpstreamError {
  const json = asRecord(parseJson(text));
  if (typeof json.error_code === "number") {
    const message =
      typeof json.error_msg === "string" && json.error_msg ? json.error_msg : `百度接口错误 ${json.error_code}`;
    const code = json.error_code;
    return { message, type: baiduStatusOf(code) === 401 ? "authentication_error" : "baidu_error", code: String(code) };
  }
  if (typeof json.error === "string") {
    const message =
      typeof json.error_description === "string" && json.error_description
        ? `${json.error}: ${json.error_description}`
        : json.error;
    const credential = json.error === "invalid_client" || json.error === "unauthorized_client";
    return { message, type: credential ? "authentication_error" : "baidu_error", code: json.error };
  }
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
