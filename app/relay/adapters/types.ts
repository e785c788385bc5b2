import type { Channel } from "../../../db/schema";
import type { Usage } from "../billing/pricing";
import type { UsageNote } from "../billing/usage-parse";

/**
 * One provider's translation between the OpenAI wire (what clients speak) and its own. The
 * pipeline never branches on provider: it asks the registry for the adapter of a channel type.
 */
export type RelayMode = "chat" | "completions" | "embeddings" | "moderations" | "images" | "rerank" | "speech" | "transcriptions" | "translations";

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

export type UpstreamRequest = { url: string; headers: Record<string, string>; body: string | Buffer };

export type UpstreamError = { message: string; type: string; code: string | null };

/**
 * Output of one upstream SSE event: OpenAI chunks to forward (already JSON-encoded); `done` when
 * the event says the reply is complete ([DONE], message_stop), so the client's stream can end
 * without waiting for the upstream to close its body.
 */
export type StreamStep = { chunks: string[]; usage?: Usage; usageNote?: UsageNote; text?: string; error?: UpstreamError; done?: boolean };

export interface StreamTranslator {
  push(event: string | undefined, data: string): StreamStep;
}

export interface Adapter {
  /** Whether the upstream can be asked for a usage chunk (stream_options.include_usage). */
  streamUsage: boolean;
  buildRequest(ctx: AdapterContext): UpstreamRequest;
  /**
   * Non-stream reply → the OpenAI-shaped body for the client and the usage to bill (read with
   * usage-parse: `usageNote` says why a reported usage was not believed).
   */
  convertResponse(ctx: AdapterContext, raw: Buffer): { body: string | Buffer; usage?: Usage; usageNote?: UsageNote };
  createStreamTranslator(ctx: AdapterContext): StreamTranslator;
  parseError(status: number, text: string): UpstreamError;
}
