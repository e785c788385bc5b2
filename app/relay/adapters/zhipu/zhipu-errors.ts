import { parseOpenAiError } from "../shared/openai-errors";
import type { UpstreamError } from "../types";
import { asRecord, parseJson } from "../shared/openai-shapes";

/**
 * Zhipu's business codes (v3 `{code,msg,success:false}`, v4 `{error:{code,message}}`):
 * 1000–1004 are a rejected credential (身份验证失败, token missing/invalid/expired), 1113 an
 * account in arrears, 1301–1305 limits, 12xx bad parameters.
 */
export function zhipuStatusOf(code: number): number {
  if (code >= 1000 && code <= 1004) return 401;
  if (code === 1113 || (code >= 1301 && code <= 1305)) return 429;
  if (code >= 1200 && code < 1300) return 400;
  return 500;
}

function typeOf(code: number): string {
  if (code >= 1000 && code <= 1004) return "authentication_error";
  if (code === 1113) return "insufficient_quota";
  return "zhipu_error";
}

export function parseZhipuError(status: number, text: string): UpstreamError {
  const json = asRecord(parseJson(text));
  const inner = asRecord(json.error);
  const code = Number(inner.code ?? json.code);
  const message = inner.message ?? json.msg ?? json.message;
  if (typeof message === "string" && message && Number.isInteger(code))
    return { message, type: typeOf(code), code: String(code) };
  return parseOpenAiError(status, text);
}

/** A v3 reply with status 200 that is an error (`success:false`): the status it means. */
export function zhipuV3ErrorStatus(json: unknown): number | undefined {
  const reply = asRecord(json);
  if (reply.success !== false) return undefined;
  const code = Number(reply.code);
  return Number.isInteger(code) ? zhipuStatusOf(code) : 500;
}
