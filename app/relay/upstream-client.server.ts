import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Duplex, Readable } from "node:stream";
import { ForbiddenUpstreamAddressError, guardedLookup, isForbiddenUpstreamIp } from "~/utils/upstream-address";

/**
 * Upstream calls over node:http with keep-alive pools (cheaper per request than fetch on this
 * path). Per request it costs what node's client costs and little more: targets are parsed once
 * per URL, headers go in as a ready list, the connect timeout lives on new connections only, and
 * aborting is a method call instead of an AbortSignal (whose listeners cost ~5% of the relay's
 * CPU when measured).
 */
// No socket `timeout` on the pool: node re-arms a socket's timer on every read and write, which
// cost ~20% of relay throughput when measured. Pooled sockets an upstream has closed are handled
// where they surface instead (sendUpstream resends once on a fresh connection).
// Every name is resolved through guardedLookup, which refuses link-local and cloud-metadata
// addresses (an IP written in the URL is checked in targetOf: node does no lookup for one).
// Redirects are never followed (node:http does not), so no hop escapes the check.
const pool = { keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000, lookup: guardedLookup };

export class UpstreamConnectError extends Error {}
export class UpstreamAbortError extends Error {}

type ConnectOptions = Parameters<HttpAgent["createConnection"]>[0] & { connectTimeoutMs?: number };

/** Bounds the TCP/TLS connect of new connections only: a kept-alive socket is already connected. */
function withConnectTimeout(
  socket: Duplex | null | undefined,
  options: ConnectOptions,
  connectedEvent: string,
): Duplex | null | undefined {
  const ms = options.connectTimeoutMs;
  if (!ms || !socket) return socket;
  const timer = setTimeout(() => socket.destroy(new UpstreamConnectError(`connect timeout after ${ms} ms`)), ms);
  const clear = () => clearTimeout(timer);
  socket.once(connectedEvent, clear);
  socket.once("close", clear);
  return socket;
}

class TimedHttpAgent extends HttpAgent {
  override createConnection(
    options: ConnectOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    return withConnectTimeout(super.createConnection(options, callback), options, "connect");
  }
}

class TimedHttpsAgent extends HttpsAgent {
  override createConnection(
    options: ConnectOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    return withConnectTimeout(super.createConnection(options, callback), options, "secureConnect");
  }
}

const httpAgent = new TimedHttpAgent(pool);
const httpsAgent = new TimedHttpsAgent(pool);

type Target = { secure: boolean; hostname: string; port: number; path: string; host: string; forbidden: boolean };
const targets = new Map<string, Target>();

/** A URL parsed once: channels call the same few URLs over and over. */
function targetOf(url: string): Target {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    const secure = parsed.protocol === "https:";
    const hostname = parsed.hostname.replace(/^\[|\]$/g, "");
    target = {
      secure,
      hostname,
      forbidden: isForbiddenUpstreamIp(hostname),
      port: Number(parsed.port) || (secure ? 443 : 80),
      path: `${parsed.pathname}${parsed.search}`,
      host: parsed.host,
    };
    if (targets.size >= 1_000) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/**
 * A handle on one upstream call, to abort it from wherever the reason arises (the client left,
 * a stream went idle, a deadline passed). Aborting destroys the request, and the reply with it.
 */
export class UpstreamCall {
  aborted = false;
  /** Epoch ms after which the sweep aborts the call (0: none). */
  deadline = 0;
  private request: ClientRequest | undefined;
  private controller: AbortController | undefined;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.request?.destroy(new UpstreamAbortError("upstream call aborted"));
    this.controller?.abort(new UpstreamAbortError("upstream call aborted"));
    this.finish();
  }

  /** A signal for transports that are not a node:http request (made only when asked for: the HTTP path does without). */
  signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted) this.controller.abort(new UpstreamAbortError("upstream call aborted"));
    return this.controller.signal;
  }

  /** Aborts the call unless it finished within `ms` (the whole non-stream reply). */
  expireAfter(ms: number): void {
    this.deadline = Date.now() + ms;
    expiring.add(this);
    sweep ??= setInterval(sweepDeadlines, SWEEP_MS).unref();
  }

  /** The call no longer needs its deadline. */
  finish(): void {
    if (this.deadline === 0) return;
    this.deadline = 0;
    expiring.delete(this);
  }

  attach(request: ClientRequest): void {
    this.request = request;
  }
}

// Deadlines are checked by one shared timer instead of a timer per request; the resolution
// (SWEEP_MS) is far below the smallest reply timeout (1 s).
const SWEEP_MS = 100;
const expiring = new Set<UpstreamCall>();
let sweep: NodeJS.Timeout | undefined;

function sweepDeadlines(): void {
  const now = Date.now();
  for (const call of expiring) if (call.deadline <= now) call.abort();
  if (expiring.size === 0 && sweep) {
    clearInterval(sweep);
    sweep = undefined;
  }
}

export type UpstreamInit = {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  connectTimeoutMs: number;
  /** The handle to abort through; one is made when not given. */
  call?: UpstreamCall;
  /** Also aborts the call (channel tests and balance queries use AbortSignal.timeout). */
  signal?: AbortSignal;
};

/**
 * Sends one upstream request and resolves with its response (one promise, settled straight from
 * node's callbacks: the first byte of a reply reaches the relay without extra turns). A kept-alive
 * socket the upstream closed while it sat in the pool fails the moment it is reused, before the
 * upstream read anything: that request is sent once more on a fresh connection instead of failing
 * the client's call (or counting against the channel).
 */
export function sendUpstream(url: string, init: UpstreamInit): Promise<IncomingMessage> {
  const call = init.call ?? new UpstreamCall();
  const target = targetOf(url);
  if (target.forbidden) return Promise.reject(new ForbiddenUpstreamAddressError(target.hostname));
  if (init.signal) {
    if (init.signal.aborted) call.abort();
    else init.signal.addEventListener("abort", () => call.abort(), { once: true });
  }
  return new Promise((resolve, reject) => {
    const send = (retry: boolean) => {
      if (call.aborted) {
        reject(new UpstreamAbortError("upstream call aborted"));
        return;
      }
      const req = requestUpstream(target, init, resolve);
      call.attach(req);
      req.on("error", (error: NodeJS.ErrnoException) => {
        const stale =
          retry && req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE") && !call.aborted;
        if (stale) send(false);
        else reject(error);
      });
      if (init.body !== undefined) req.end(init.body);
      else req.end();
    };
    send(true);
  });
}

function requestUpstream(
  target: Target,
  init: UpstreamInit,
  onResponse: (res: IncomingMessage) => void,
): ClientRequest {
  // A header list goes to the wire as it is (node validates each pair once, without the
  // per-header bookkeeping an object gets); Host and Content-Length are ours to add then.
  const headers: string[] = ["Host", target.host];
  for (const name in init.headers) headers.push(name, init.headers[name]!);
  if (init.body !== undefined) headers.push("Content-Length", String(Buffer.byteLength(init.body)));
  const options: RequestOptions & { connectTimeoutMs: number } = {
    hostname: target.hostname,
    port: target.port,
    path: target.path,
    method: init.method,
    headers: headers as unknown as RequestOptions["headers"],
    agent: target.secure ? httpsAgent : httpAgent,
    connectTimeoutMs: init.connectTimeoutMs,
  };
  return (target.secure ? httpsRequest : httpRequest)(options, onResponse);
}

export function readAll(res: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    res.on("error", reject);
  });
}
