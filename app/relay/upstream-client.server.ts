import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/**
 * Upstream calls over node:http with keep-alive pools (cheaper per request than fetch on this
 * path). A connect timeout bounds dead hosts; the caller's AbortSignal ends the call when the
 * client leaves or the stream goes idle.
 */
// No socket `timeout` on the pool: node re-arms a socket's timer on every read and write, which
// cost ~20% of relay throughput when measured. Pooled sockets an upstream has closed are handled
// where they surface instead (sendUpstream resends once on a fresh connection).
const pool = { keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000 };
const httpAgent = new HttpAgent(pool);
const httpsAgent = new HttpsAgent(pool);

export class UpstreamConnectError extends Error {}

type UpstreamInit = { method: string; headers: Record<string, string>; body?: string | Buffer; signal: AbortSignal; connectTimeoutMs: number };

/**
 * Sends one upstream request. A kept-alive socket the upstream closed while it sat in the pool
 * fails the moment it is reused, before the upstream read anything: that request is sent once
 * more on a fresh connection instead of failing the client's call (or counting against the
 * channel).
 */
export async function sendUpstream(url: string, init: UpstreamInit): Promise<IncomingMessage> {
  try {
    return await sendOnce(url, init);
  } catch (error) {
    if (!(error instanceof StaleSocketError) || init.signal.aborted) throw error;
    return sendOnce(url, init);
  }
}

class StaleSocketError extends Error {}

function sendOnce(url: string, init: UpstreamInit): Promise<IncomingMessage> {
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
    req.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      const stale = req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
      reject(stale ? new StaleSocketError(error.message) : error);
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
