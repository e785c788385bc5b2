import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";

/** Request ids like the reference's: time to the second plus random characters. */
export function newRequestId(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:TZ.]/g, "").slice(0, 14);
  return `${stamp}${randomBytes(6).toString("hex")}`;
}

/** Writes an OpenAI-shaped error: `{error:{message,type,param,code}}` with the request id. */
export function sendRelayError(
  res: ServerResponse,
  status: number,
  error: { message: string; type?: string; code?: string | null; param?: string | null },
  requestId: string,
): void {
  const body = JSON.stringify({
    error: {
      message: `${error.message} (request id: ${requestId})`,
      type: error.type ?? "new_api_error",
      param: error.param ?? null,
      code: error.code ?? null,
    },
  });
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Oneapi-Request-Id": requestId,
  });
  res.end(body);
}
