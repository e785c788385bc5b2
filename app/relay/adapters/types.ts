import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { Channel } from "../../../db/schema";
import type { Usage } from "../billing/pricing";
import type { UsageNote } from "../billing/usage-parse";

/**
 * One provider's translation between the OpenAI wire (what clients speak) and its own. The
 * pipeline never branches on provider: it asks the registry for the adapter of a channel type.
 */
export type RelayMode =
  | "chat"
  | "completions"
  | "edits"
  | "embeddings"
  | "moderations"
  | "images"
  | "rerank"
  | "speech"
  | "transcriptions"
  | "translations";

/** Where a channel sends: enough to build a URL (a channel being edited in the form is not saved yet). */
export type ChannelAddress = Pick<Channel, "id" | "type" | "base_url" | "other">;

export type AdapterContext = {
  channel: Channel;
  key: string;
  mode: RelayMode;
  /** The client's path, e.g. /v1/chat/completions. */
  path: string;
  body: Record<string, unknown>;
  /** The model sent upstream (after the channel's model mapping). */
  upstreamModel: string;
  /** The model the client asked for (replies name it). */
  requestModel: string;
  stream: boolean;
  /** The client's JSON bytes, when `body` is exactly their parse (so they may go upstream as they are). */
  rawJson?: Buffer;
};

export type UpstreamRequest = {
  url: string;
  method?: "POST" | "GET";
  headers: Record<string, string>;
  body: string | Buffer;
};

/** An upstream's reply as the attempt reads it: an HTTP response, or anything that reads like one. */
export type UpstreamReply = Readable & { statusCode?: number; headers: IncomingHttpHeaders };

/** One event of a stream body: what an SSE event carries, whatever the framing on the wire. */
export type StreamEvent = { event?: string; data: string };

/** Splits a stream body that is not SSE (NDJSON, AWS event stream…) into events; bytes may arrive split anywhere. */
export interface StreamDecoder {
  feed(chunk: Buffer): StreamEvent[];
}

/** What a custom transport gets: the connect bound and the call to watch for aborts. */
export type TransportInit = { connectTimeoutMs: number; signal: AbortSignal };

/** A channel whose configuration cannot make a request (no base URL, a malformed key): the next channel is tried, this one is not disabled. */
export class ChannelConfigError extends Error {}

/** An upstream's error in its own words; `param` names the request field it refused, when it says. */
export type UpstreamError = { message: string; type: string; code: string | null; param?: string | null };

/**
 * The codes of the errors the gateway itself ends a stream with when the upstream's stopped
 * short: it went quiet past the idle timeout, or its connection or body ended mid-reply.
 */
export const STREAM_IDLE_TIMEOUT = "stream_idle_timeout";
export const STREAM_INTERRUPTED = "stream_interrupted";

/**
 * A failure reported inside a 200 reply (MiniMax's `base_resp`, an Ollama `{"error"}` body): the
 * status it stands for, so retry, status mapping and auto-disable treat it like an HTTP error.
 */
export type ReplyFailure = { status: number; error: UpstreamError };

/**
 * Output of one upstream SSE event: OpenAI chunks to forward (already JSON-encoded); `done` when
 * the event says the reply is complete ([DONE], message_stop), so the client's stream can end
 * without waiting for the upstream to close its body.
 */
export type StreamStep = {
  chunks: string[];
  usage?: Usage;
  usageNote?: UsageNote;
  text?: string;
  error?: UpstreamError;
  done?: boolean;
  /** Set by a translator that parsed the chunk anyway: the stream's id and created time (its first chunk), so they are not parsed again. */
  identity?: { id?: unknown; created?: unknown };
  /** Set by a translator that parsed the chunk anyway: whether it is the usage-only chunk (no choices), so it is not parsed again. */
  usageOnly?: boolean;
};

export interface StreamTranslator {
  push(event: string | undefined, data: string): StreamStep;
  /**
   * Whether the reply is whole: its protocol's last event came, or every choice or candidate has
   * its finish reason (only trailing usage may follow). Set by translators whose protocol marks
   * its end: a body that closes, or a connection that drops, before then has cut the reply short,
   * and the client is told so. Without it a closing body ends the reply as it is, and only a
   * dropped connection or the idle timeout cuts it.
   */
  finished?(): boolean;
  /**
   * Set by translators that speak a client's native stream (the Anthropic, Gemini and Responses
   * ingress, decision 026): their chunks are whole frames written as they are (not wrapped in
   * `data: …`), and the stream's end is theirs to frame — given the usage billed and the error
   * that cut it short, if any — instead of the OpenAI usage chunk and `[DONE]`.
   */
  close?(billed: Usage, error?: UpstreamError): string;
}

export interface Adapter {
  /** Whether the upstream can be asked for a usage chunk (stream_options.include_usage). */
  streamUsage: boolean;
  /** May be async: providers whose credential is exchanged first (Vertex, Baidu) or signed with an async signer. */
  buildRequest(ctx: AdapterContext): UpstreamRequest | Promise<UpstreamRequest>;
  /** Stream bodies not framed as SSE: the decoder that splits them into events (default: SSE). */
  createStreamDecoder?(ctx: AdapterContext): StreamDecoder;
  /**
   * Providers not reached by one HTTP request (Spark's WebSocket): sends the built request and
   * returns a reply that reads like an HTTP response (status 200 + an SSE or decoder-framed body).
   */
  send?(request: UpstreamRequest, init: TransportInit): Promise<UpstreamReply>;
  /**
   * Non-stream reply → the OpenAI-shaped body for the client and the usage to bill (read with
   * usage-parse: `usageNote` says why a reported usage was not believed).
   */
  convertResponse(
    ctx: AdapterContext,
    raw: Buffer,
  ): { body: string | Buffer; usage?: Usage; usageNote?: UsageNote; failure?: ReplyFailure };
  /**
   * The upstream's model list (GET, through the SSRF-guarded client) for the channel form's
   * "获取模型列表": the request to send and how to read its reply. Absent: the provider lists none.
   */
  listModels?: { request(channel: ChannelAddress, key: string): UpstreamRequest; parse(raw: string): string[] };
  createStreamTranslator(ctx: AdapterContext): StreamTranslator;
  parseError(status: number, text: string): UpstreamError;
}
