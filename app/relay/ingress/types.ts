import type { IncomingMessage, ServerResponse } from "node:http";
import type { Adapter, StreamTranslator } from "../adapters/types";
import type { Usage } from "../billing/pricing";
import type { RelayFailure } from "../relay-error";

/**
 * One native client request in flight (decision 026): it chooses each attempt's adapter. Where
 * the channel speaks the client's protocol the client's own body goes up and the reply's bytes
 * come back (pass-through); elsewhere the channel's adapter serves the OpenAI chat form of the
 * request and its OpenAI reply is converted back into the client's protocol.
 */
export interface Ingress {
  adapterFor(channelType: number): Adapter;
}

/** The OpenAI reply of a converted attempt → the client's protocol. */
export interface ReplyCodec {
  /** A whole OpenAI chat completion → the native reply body (usage as billed from it). */
  convertReply(reply: Record<string, unknown>, usage: Usage | undefined, requestModel: string): unknown;
  /** OpenAI chat chunks → native stream frames; the end is framed with the usage billed. `promptEstimate`: the prompt's tokens as counted before the reply. */
  createStreamWriter(requestModel: string, promptEstimate: number): NativeStreamWriter;
}

export interface NativeStreamWriter {
  /** One OpenAI chat.completion.chunk → whole native frames (possibly none). */
  chunk(chunk: Record<string, unknown>): string;
  close: NonNullable<StreamTranslator["close"]>;
}

/** What a surface's path matched: the model named in the path and the method, where the URL carries them. */
export type IngressMatch = { model?: string; stream?: boolean };

/** A native client surface: how it presents its key, how its request becomes an ingress, how its errors look. */
export interface IngressSurface {
  /** The key the client presented, as an `Authorization` value for the token check (undefined: none). */
  credential(req: IncomingMessage, url: URL): string | undefined;
  parse(
    raw: Buffer,
    match: IngressMatch,
    req: IncomingMessage,
  ): { body: Record<string, unknown>; ingress: Ingress } | { failure: RelayFailure };
  sendError(res: ServerResponse, failure: RelayFailure, requestId: string): void;
}
