import type { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";
import { ForbiddenUpstreamAddressError, guardedLookup, isForbiddenUpstreamIp } from "~/utils/upstream-address";
import type { UpstreamReply } from "./adapters/types";
import { nodeShapedHeaders } from "./reply-headers";

/**
 * Upstream calls through undici's keep-alive pools, not node:http's client: with undici the
 * gateway spends 30-40 % less CPU per relayed call (decision 039, a tenth look; node's client
 * copies each request's options into dictionary-mode objects twice, ~3 µs alone, and its
 * agent, request and response objects cost the gateway about twice what undici's do).
 * Per request it costs what undici costs and little more: targets are parsed once per URL,
 * headers go in as a ready list, and aborting is a method call (the call is undici's signal)
 * instead of an AbortSignal (whose listeners cost ~5% of the relay's CPU when measured).
 *
 * Every name is resolved through guardedLookup, which refuses link-local and cloud-metadata
 * addresses (an IP written in the URL is checked in targetOf: no lookup is made for one).
 * Redirects are never followed (undici's agent does not), so no hop escapes the check.
 */
// The relay's own bounds govern every wait: the reply deadline (the sweep below) until a reply
// starts, then the stream idle timer; undici's 300-s header and body timers would cut a long,
// slow stream that those allow, so they are off. Idle connections are kept as long as the
// upstream's Keep-Alive hint says, else 30 s (undici's 4-s default would cost a TLS handshake
// after every short pause in traffic); one the upstream closed first is handled in sendUpstream.
const POOL = { connections: 256, headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 30_000 };

export class UpstreamAbortError extends Error {}

// One pool set per connect bound (the relay's and the credential exchanges' are the only two).
const agents = new Map<number, Agent>();
function agentFor(connectTimeoutMs: number): Agent {
  let agent = agents.get(connectTimeoutMs);
  if (!agent) {
    agent = new Agent({ ...POOL, connect: { timeout: connectTimeoutMs, lookup: guardedLookup } });
    agents.set(connectTimeoutMs, agent);
  }
  return agent;
}

type Target = { origin: string; hostname: string; path: string; forbidden: boolean };
const targets = new Map<string, Target>();

/** A URL parsed once: channels call the same few URLs over and over. */
function targetOf(url: string): Target {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    const hostname = parsed.hostname.replace(/^\[|\]$/g, "");
    target = {
      origin: parsed.origin,
      hostname,
      forbidden: isForbiddenUpstreamIp(hostname),
      path: `${parsed.pathname}${parsed.search}`,
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
  /** Why it was aborted (undici destroys the reply with it). */
  reason: UpstreamAbortError | undefined;
  private controller: AbortController | undefined;
  /** undici's listener on the request in flight (the call is the request's signal). */
  private listener: (() => void) | undefined;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new UpstreamAbortError("upstream call aborted");
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
    this.controller?.abort(this.reason);
    this.finish();
  }

  // undici takes an EventEmitter as a request's signal and only ever adds and removes its one
  // 'abort' listener: these three make the call that signal, with no emitter or AbortSignal per call.
  addListener(_event: "abort", listener: () => void): this {
    this.listener = listener;
    return this;
  }
  on(event: "abort", listener: () => void): this {
    return this.addListener(event, listener);
  }
  removeListener(_event: "abort", listener: () => void): this {
    if (this.listener === listener) this.listener = undefined;
    return this;
  }

  /** A signal for transports that do not go through sendUpstream (made only when asked for: sendUpstream does without). */
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
 * Sends one upstream request and resolves with its reply: the body stream, with the status and
 * the headers (shaped as node's would be) on it. A kept-alive connection the upstream closed
 * while it sat in the pool fails the moment it is reused, before the upstream read anything:
 * that request is sent once more on a fresh connection instead of failing the client's call (or
 * counting against the channel).
 */
export function sendUpstream(url: string, init: UpstreamInit): Promise<UpstreamReply> {
  const call = init.call ?? new UpstreamCall();
  const target = targetOf(url);
  if (target.forbidden) return Promise.reject(new ForbiddenUpstreamAddressError(target.hostname));
  if (init.signal) {
    if (init.signal.aborted) call.abort();
    else init.signal.addEventListener("abort", () => call.abort(), { once: true });
  }
  // A header list goes to undici as it is; Host and Content-Length are its to add.
  const headers: string[] = [];
  for (const name in init.headers) headers.push(name, init.headers[name]!);
  const options: Dispatcher.RequestOptions = {
    origin: target.origin,
    path: target.path,
    method: init.method as Dispatcher.HttpMethod,
    headers,
    body: init.body,
    signal: call,
  };
  const agent = agentFor(init.connectTimeoutMs);
  const send = (): Promise<UpstreamReply> => {
    if (call.aborted) return Promise.reject(call.reason);
    return agent.request(options).then(replyOf);
  };
  return send().catch((error: unknown) => {
    if (call.aborted || !failedOnPooledConnection(error)) throw error;
    return send();
  });
}

function replyOf(reply: Dispatcher.ResponseData): UpstreamReply {
  const body = reply.body as unknown as UpstreamReply;
  body.statusCode = reply.statusCode;
  body.headers = nodeShapedHeaders(reply.headers);
  return body;
}

/**
 * A connection that failed before any reply to this request, having read one before: a pooled
 * connection the upstream had closed. (undici does not say which connection a request got; one
 * that has read bytes already served a reply, as no reply to this request was read.)
 */
function failedOnPooledConnection(error: unknown): boolean {
  const { code, socket } = error as { code?: string; socket?: { bytesRead?: number } };
  const closed = code === "UND_ERR_SOCKET" || code === "ECONNRESET" || code === "EPIPE";
  return closed && (socket?.bytesRead ?? 0) > 0;
}

export function readAll(res: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    res.on("error", reject);
  });
}
