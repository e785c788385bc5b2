import type { UpstreamError } from "../types";

/** `{error:{message,type,code,param}}` (OpenAI, Azure's `{error:{code,message}}` too); anything else is summarised. */
export function parseOpenAiError(status: number, text: string): UpstreamError {
  try {
    const parsed = JSON.parse(text) as {
      error?: { message?: unknown; type?: unknown; code?: unknown; param?: unknown } | string;
      message?: unknown;
    };
    const error = typeof parsed.error === "object" && parsed.error ? parsed.error : undefined;
    const message = error?.message ?? (typeof parsed.error === "string" ? parsed.error : parsed.message);
    if (typeof message === "string" && message) {
      return {
        message,
        type: typeof error?.type === "string" ? error.type : "upstream_error",
        code: error?.code === undefined || error?.code === null ? null : String(error.code),
        param: typeof error?.param === "string" ? error.param : null,
      };
    }
  } catch {}
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
