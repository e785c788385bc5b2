import type { UpstreamError } from "../types";
import { asRecord, parseJson } from "../shared/openai-shapes";

/**
 * Spark's frame codes → the status they mean: 11200 (授权错误: the AppID has no licence for the
 * service, or the licence expired) and 10313 (APPID and APIKey do not match) are a rejected
 * credential, 11201–11203 limits, 10013/10014/10019 content refused, 10163/10907 bad parameters.
 */
const CREDENTIAL_CODES = new Set([11200, 10313]);

/** `header.status` of Spark's last frame of a reply (0 first, 1 in between). */
export const SPARK_LAST_FRAME = 2;

export function sparkStatusOf(code: number): number {
  if (CREDENTIAL_CODES.has(code)) return 401;
  if (code >= 11201 && code <= 11203) return 429;
  if ([10013, 10014, 10019, 10163, 10907].includes(code)) return 400;
  return 500;
}

export function sparkErrorOf(frame: { header?: { code?: unknown; message?: unknown } }): UpstreamError | undefined {
  const code = Number(frame.header?.code ?? 0);
  if (!code) return undefined;
  const message =
    typeof frame.header?.message === "string" && frame.header.message ? frame.header.message : `讯飞星火错误 ${code}`;
  return { message, type: CREDENTIAL_CODES.has(code) ? "authentication_error" : "xunfei_error", code: String(code) };
}

/**
 * An error frame (the transport hands it on under its status) or the handshake's refusal: a
 * wrong signature or unknown APIKey is answered 401 `{"message":"HMAC signature does not match"}`
 * before any frame.
 */
export function parseSparkError(status: number, text: string): UpstreamError {
  const json = asRecord(parseJson(text));
  const fromFrame = sparkErrorOf(json);
  if (fromFrame) return fromFrame;
  if (typeof json.message === "string" && json.message) {
    return {
      message: json.message,
      type: status === 401 || status === 403 ? "authentication_error" : "xunfei_error",
      code: `handshake_${status}`,
    };
  }
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
