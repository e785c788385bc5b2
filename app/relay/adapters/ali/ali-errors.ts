import type { UpstreamError } from "../types";
import { asRecord, parseJson } from "../shared/openai-shapes";

const CREDENTIAL_CODES = new Set(["InvalidApiKey", "AccessDenied.Unpurchased", "Arrearage"]);

/** DashScope `{code, message, request_id}` (also a task's `output.code/message`). */
export function parseAliError(status: number, text: string): UpstreamError {
  const json = asRecord(parseJson(text));
  const source = typeof json.code === "string" ? json : asRecord(json.output);
  if (typeof source.code === "string" && source.code) {
    const message = typeof source.message === "string" && source.message ? source.message : source.code;
    return {
      message,
      type: CREDENTIAL_CODES.has(source.code) ? "authentication_error" : "ali_error",
      code: source.code,
    };
  }
  return { message: `bad response status code ${status}`, type: "upstream_error", code: "bad_response_status_code" };
}
