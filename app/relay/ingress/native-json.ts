import { jsonNestsDeeperThan } from "~/utils/edge-input";
import { MAX_RELAY_JSON_DEPTH } from "../request-parse";
import { localFailure, type RelayFailure } from "../relay-error";
import { isObject, type Json } from "./json-shape";

/** A native request's JSON → an object, or the 400 its client should see (not JSON, not an object, absurdly deep). */
export function parseNativeJson(raw: Buffer): { body: Json } | { failure: RelayFailure } {
  const invalid = (message: string) => ({ failure: localFailure(400, message, "invalid_request", "invalid_request_error") });
  if (jsonNestsDeeperThan(raw, MAX_RELAY_JSON_DEPTH)) return invalid(`无效的请求体：JSON 嵌套超过 ${MAX_RELAY_JSON_DEPTH} 层`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8") || "{}");
  } catch {
    return invalid("无效的请求体：必须是 JSON 对象");
  }
  return isObject(parsed) ? { body: parsed } : invalid("无效的请求体：必须是 JSON 对象");
}
