import { jsonNestsDeeperThan } from "~/utils/edge-input";
import { MAX_RELAY_JSON_DEPTH } from "../request-parse";
import { localFailure, type RelayFailure } from "../relay-error";
import { setMember } from "../json-edit";
import { isObject, type Json } from "./json-shape";

/** A native request's JSON → an object, or the 400 its client should see (not JSON, not an object, absurdly deep). */
export function parseNativeJson(raw: Buffer): { body: Json } | { failure: RelayFailure } {
  const invalid = (message: string) => ({
    failure: localFailure(400, message, "invalid_request", "invalid_request_error"),
  });
  if (jsonNestsDeeperThan(raw, MAX_RELAY_JSON_DEPTH))
    return invalid(`无效的请求体：JSON 嵌套超过 ${MAX_RELAY_JSON_DEPTH} 层`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8") || "{}");
  } catch {
    return invalid("无效的请求体：必须是 JSON 对象");
  }
  return isObject(parsed) ? { body: parsed } : invalid("无效的请求体：必须是 JSON 对象");
}

/**
 * A native body as it goes to a channel of its own protocol: the client's bytes, with only the
 * model edited in place when the channel maps it (never re-serialised: numbers and unknown fields
 * arrive as written). Rebuilt from the parse only if the bytes cannot be edited.
 */
export function nativeBodyFor(raw: Buffer, body: Json, model: string): string | Buffer {
  if (body.model === model && raw.length > 0) return raw;
  return setMember(raw, ["model"], JSON.stringify(model)) ?? JSON.stringify({ ...body, model });
}
