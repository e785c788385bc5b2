import type { IncomingMessage, ServerResponse } from "node:http";
import { discardBody } from "~/utils/discard-body.server";
import { exposedHeaderNames } from "./wire-headers";

export const MAX_RELAY_BODY_BYTES = 32 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

/**
 * Reads the whole request body (relay bodies are small JSON or bounded multipart). Past the
 * limit — or when Content-Length already says so — it stops keeping bytes and rejects with
 * BodyTooLargeError. It does not close the connection: closing a socket while the client is
 * still sending makes the kernel answer with a reset, and the client never sees the 413. The
 * rest is read and discarded instead (bounded), so the 413 can be sent first.
 */
export function readBody(req: IncomingMessage, limit = MAX_RELAY_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) {
      discardBody(req);
      reject(new BodyTooLargeError("request body too large"));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.off("data", onData);
        req.off("end", onEnd);
        discardBody(req);
        reject(new BodyTooLargeError("request body too large"));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(
    status,
    withCors({
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
      ...headers,
    }),
  );
  res.end(text);
}

/**
 * Browser chat apps call the relay cross-origin with a bearer token (no cookies involved), so
 * every relay reply carries this. It goes in with each reply's own headers: a header set ahead
 * with setHeader sends node's writeHead down its slower merging path.
 */
export const CORS_HEADERS = { "Access-Control-Allow-Origin": "*" } as const;

/** A relay reply's headers with the CORS ones added: any origin, and its informative headers readable. */
export function withCors<T extends Record<string, string | number>>(headers: T): T & Record<string, string | number> {
  const out: Record<string, string | number> = headers;
  out["Access-Control-Allow-Origin"] = CORS_HEADERS["Access-Control-Allow-Origin"];
  const exposed = exposedHeaderNames(headers);
  if (exposed) out["Access-Control-Expose-Headers"] = exposed;
  return out as T & Record<string, string | number>;
}

/** Answers a CORS preflight; true when the request was one. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === "OPTIONS") {
    res.writeHead(204, {
      ...CORS_HEADERS,
      "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
      "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*",
      "Access-Control-Max-Age": "86400",
    });
    res.end();
    return true;
  }
  return false;
}

/** The caller's address as the console sees it (X-Forwarded-For only behind a trusted proxy). */
export function relayClientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = String(req.headers["x-forwarded-for"] ?? "")
      .split(",")[0]
      ?.trim();
    if (forwarded) return forwarded;
  }
  return req.socket.remoteAddress ?? "";
}
