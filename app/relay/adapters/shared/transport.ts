import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import { readAll, sendUpstream } from "../../upstream-client.server";
import type { TransportInit, UpstreamReply, UpstreamRequest } from "../types";

/**
 * HTTP transports for providers that answer errors with status 200 and an error body (Baidu,
 * Zhipu v3, Hunyuan): the reply is read first and, when it is an error, handed on with the
 * status the error means (401 for a rejected credential, 429 for a limit…), so failover and
 * auto-disable work on it as on any HTTP error. Everything goes through sendUpstream (SSRF guard).
 */
export function replyOf(
  statusCode: number,
  body: string | Buffer,
  headers: IncomingHttpHeaders = { "content-type": "application/json" },
): UpstreamReply {
  const reply = Readable.from([typeof body === "string" ? Buffer.from(body) : body]) as UpstreamReply;
  reply.statusCode = statusCode;
  reply.headers = headers;
  return reply;
}

export function sendHttp(request: UpstreamRequest, init: TransportInit): Promise<UpstreamReply> {
  const method = request.method ?? "POST";
  return sendUpstream(request.url, {
    method,
    headers: request.headers,
    body: method === "GET" ? undefined : request.body,
    connectTimeoutMs: init.connectTimeoutMs,
    signal: init.signal,
  });
}

/** A reply read whole (unless it is a 200 event stream, which is handed on as it is). */
export type ReadReply = { reply: UpstreamReply; status: number; body?: Buffer };

export async function sendAndRead(request: UpstreamRequest, init: TransportInit): Promise<ReadReply> {
  const upstream = await sendHttp(request, init);
  const status = upstream.statusCode ?? 502;
  if (status === 200 && String(upstream.headers["content-type"] ?? "").includes("text/event-stream"))
    return { reply: upstream, status };
  const body = await readAll(upstream);
  return { reply: replyOf(status, body, upstream.headers), status, body };
}

/**
 * Sends and lifts a 200 error body to the status `errorStatus` gives it (undefined: not an error).
 * Event streams pass through: their errors come as events, which the stream translator reads.
 */
export async function sendLiftingErrors(
  request: UpstreamRequest,
  init: TransportInit,
  errorStatus: (json: unknown) => number | undefined,
): Promise<UpstreamReply> {
  const read = await sendAndRead(request, init);
  if (read.status !== 200 || !read.body) return read.reply;
  let json: unknown;
  try {
    json = JSON.parse(read.body.toString("utf8"));
  } catch {
    return replyOf(200, read.body, read.reply.headers);
  }
  const lifted = errorStatus(json);
  return replyOf(lifted ?? 200, read.body, read.reply.headers);
}

/** A wait that ends early (rejecting) when the call is aborted. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
