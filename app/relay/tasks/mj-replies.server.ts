import type { IncomingMessage, ServerResponse } from "node:http";
import { inCallersLanguage } from "../errors.server";
import { BodyTooLargeError, readBody, sendJson } from "../http.server";
import type { RelayFailure } from "../relay-error";
import { parseJsonBody } from "./task-upstream.server";

/** Errors on this surface keep the proxy's reply shape (code 4: request error, 5: other), as the reference does. */
export function mjError(res: ServerResponse, status: number, code: number, description: string): void {
  sendJson(res, status, { code, description: inCallersLanguage(res, description), result: null, properties: {} });
}

export function mjFailure(res: ServerResponse, failure: RelayFailure): void {
  mjError(res, failure.status, failure.status >= 500 ? 5 : 4, failure.message);
}

/** The request's JSON object, or undefined once the error has been answered. */
export async function readJsonObject(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Record<string, unknown> | undefined> {
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      mjError(res, 413, 4, "请求体过大");
      return undefined;
    }
    throw error;
  }
  const parsed = parseJsonBody(raw.toString("utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    mjError(res, 400, 4, "invalid_request: 请求体必须是 JSON 对象");
    return undefined;
  }
  return parsed as Record<string, unknown>;
}
