import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/**
 * Upstream calls over node:http with keep-alive pools (cheaper per request than fetch on this
 * path). A connect timeout bounds dead hosts; the caller's AbortSignal ends the call when the
 * client leaves or the stream goes idle.
 */
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000 });

export class UpstreamConnectError extends Error {}

export function sendUpstream(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Buffer; signal: AbortSignal; connectTimeoutMs: number },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === "https:";
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined) headers["Content-Length"] = Buffer.byteLength(init.body);
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      { method: init.method, headers, agent: secure ? httpsAgent : httpAgent, signal: init.signal },
      (res) => resolve(res),
    );
    const connectTimer = setTimeout(() => req.destroy(new UpstreamConnectError(`connect timeout after ${init.connectTimeoutMs} ms`)), init.connectTimeoutMs);
    // Only the TCP/TLS connect is bounded here; a kept-alive socket is already connected.
    req.on("socket", (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once(secure ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    req.on("error", (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    if (init.body !== undefined) req.end(init.body);
    else req.end();
  });
}

export function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => resolve(Buffer.concat(chunks)));
    res.on("error", reject);
  });
}
