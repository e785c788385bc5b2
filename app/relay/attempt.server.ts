import type { Channel } from "../../db/schema";
import type { FailedAttempt } from "./admission/attempt-loop.server";
import { decryptSecret } from "~/utils/secrets.server";
import {
  ChannelConfigError,
  type Adapter,
  type AdapterContext,
  type RelayMode,
  type UpstreamReply,
} from "./adapters/types";
import type { Usage } from "./billing/pricing";
import type { UsageNote } from "./billing/usage-parse";
import { isRetryableStatus, mapStatusCode } from "./failure-policy";
import type { ReplySink } from "./reply-sink";
import { endNativeStream, endStream, pipeStream } from "./stream/pipe-stream.server";
import { replyUsage } from "./billing/reply-usage";
import { replyWithBilledUsage } from "./billing/billed-usage-body";
import { speechCharacters } from "./request-parse";
import { readAll, sendUpstream, UpstreamCall } from "./upstream-client.server";
import { informativeReplyHeaders } from "./wire-headers";
import { clientWantsUsage } from "./adapters/shared/client-usage";
import { callAlone } from "./calls-in-flight";

/** The client's side of one relayed request: whether it left, and the upstream call to abort when it does. */
export type ClientWatch = { gone: boolean; upstream: UpstreamCall | undefined };

export type RelayTimeouts = { connectMs: number; responseMs: number; streamIdleMs: number };

export type AttemptInput = {
  channel: Channel;
  adapter: Adapter;
  mode: RelayMode;
  path: string;
  body: Record<string, unknown>;
  rawBody?: Buffer;
  contentType?: string;
  requestModel: string;
  stream: boolean;
  requestId: string;
  /** The client's headers that describe the request (wire-headers): they go upstream beside the adapter's. */
  clientHeaders?: Record<string, string>;
  watch: ClientWatch;
  timeouts: RelayTimeouts;
};

export type AttemptResult =
  // `deliver` finishes the client's reply; the pipeline calls it once the charge is journaled,
  // with the usage billed (a stream reports it in its closing usage chunk when asked to).
  | {
      ok: true;
      usage?: Usage;
      usageNote?: UsageNote;
      countedCompletion: number;
      frtMs: number;
      deliver: (billed: Usage) => void;
    }
  | FailedAttempt;

// A channel's model_mapping, parsed once per loaded channel row (a changed channel is a new row).
const parsedMappings = new WeakMap<Channel, Record<string, unknown>>();

/** The model the channel is asked for: its model_mapping applied once (never chained). */
export function mapModel(channel: Channel, model: string): string {
  if (!channel.model_mapping) return model;
  let mapping = parsedMappings.get(channel);
  if (!mapping) {
    try {
      const parsed: unknown = channel.model_mapping.trim() ? JSON.parse(channel.model_mapping) : {};
      mapping = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
    } catch {
      mapping = {};
    }
    parsedMappings.set(channel, mapping);
  }
  const mapped = Object.hasOwn(mapping, model) ? mapping[model] : undefined;
  return typeof mapped === "string" && mapped ? mapped : model;
}

// Channel keys stay sealed in the routing table; the opened form is memoised by its sealed text
// (a changed key has a new one), so AES-GCM is not paid on every request.
const openedKeys = new Map<string, string>();
function channelKey(sealed: string): string {
  let key = openedKeys.get(sealed);
  if (key === undefined) {
    if (openedKeys.size > 10_000) openedKeys.clear();
    key = decryptSecret(sealed);
    openedKeys.set(sealed, key);
  }
  return key;
}

/** A channel's opened key (the Realtime relay opens its own upstream socket). */
export function channelKeyOf(channel: Channel): string {
  return channelKey(channel.key_encrypted);
}

/** One try against one channel. Nothing is written to the client until the upstream said 200. */
export async function attemptChannel(input: AttemptInput, sink: ReplySink): Promise<AttemptResult> {
  const started = Date.now();
  const ctx: AdapterContext = {
    channel: input.channel,
    key: channelKey(input.channel.key_encrypted),
    mode: input.mode,
    path: input.path,
    body: input.body,
    upstreamModel: mapModel(input.channel, input.requestModel),
    requestModel: input.requestModel,
    stream: input.stream,
    rawJson: input.contentType ? undefined : input.rawBody,
  };
  const call = new UpstreamCall();
  input.watch.upstream = call;
  // Until its reply starts, every call is bounded by the reply timeout (a stream too: an upstream
  // that accepts the connection and never answers would hang it forever); a stream's body is
  // then watched by the idle timer instead. A credential exchange inside buildRequest counts too.
  call.expireAfter(input.timeouts.responseMs);
  try {
    const building = input.adapter.buildRequest(ctx);
    const built = building instanceof Promise ? await building : building;
    const multipart = input.rawBody !== undefined && input.contentType !== undefined;
    const body = multipart ? input.rawBody : built.body;
    // The adapter's own headers win over the client's: the credential and content type are the channel's.
    const ownHeaders = multipart ? { ...built.headers, "Content-Type": input.contentType! } : built.headers;
    const headers = input.clientHeaders ? { ...input.clientHeaders, ...ownHeaders } : ownHeaders;
    const upstream = input.adapter.send
      ? await input.adapter.send(built, { connectTimeoutMs: input.timeouts.connectMs, signal: call.signal() })
      : await sendUpstream(built.url, {
          method: built.method ?? "POST",
          headers,
          body: built.method === "GET" ? undefined : body,
          connectTimeoutMs: input.timeouts.connectMs,
          call,
        });
    return await readReply(input, ctx, upstream, call, sink, Date.now() - started);
  } catch (error) {
    // No response, or its body broke off before anything reached the client.
    return failedCall(input, call, error as Error);
  } finally {
    call.finish();
    input.watch.upstream = undefined;
  }
}

function failedCall(input: AttemptInput, call: UpstreamCall, error: Error): FailedAttempt {
  if (error instanceof ChannelConfigError) {
    // The channel cannot be called as configured: another channel may serve; this one is not disabled (upstreamStatus 0).
    console.warn(`[relay] ${input.requestId} channel #${input.channel.id} misconfigured: ${error.message}`);
    return {
      ok: false,
      status: 500,
      error: { message: error.message, type: "new_api_error", code: "channel_misconfigured" },
      retryable: !input.watch.gone,
      responded: false,
      upstreamStatus: 0,
    };
  }
  const aborted = call.aborted;
  console.warn(`[relay] ${input.requestId} channel #${input.channel.id} request failed: ${error.message}`);
  return {
    ok: false,
    status: aborted && !input.watch.gone ? 504 : 502,
    error: {
      message: aborted ? "上游响应超时" : "请求上游地址失败",
      type: "upstream_error",
      code: "do_request_failed",
    },
    retryable: !input.watch.gone,
    responded: false,
    upstreamStatus: 0,
  };
}

async function readReply(
  input: AttemptInput,
  ctx: AdapterContext,
  upstream: UpstreamReply,
  call: UpstreamCall,
  sink: ReplySink,
  frtMs: number,
): Promise<AttemptResult> {
  const status = upstream.statusCode ?? 502;
  if (status !== 200) {
    const error = input.adapter.parseError(status, (await readAll(upstream)).toString("utf8"));
    const headers = informativeReplyHeaders(upstream.headers);
    return {
      ok: false,
      status: mapStatusCode(input.channel.status_code_mapping, status),
      error,
      retryable: isRetryableStatus(status, input.channel.type),
      responded: false,
      upstreamStatus: status,
      headers,
    };
  }
  const decoder = input.adapter.createStreamDecoder?.(ctx);
  const isEventStream =
    decoder !== undefined || String(upstream.headers["content-type"] ?? "").includes("text/event-stream");
  if (input.stream && isEventStream) {
    call.finish();
    sink.start(200, {
      ...informativeReplyHeaders(upstream.headers),
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
      "X-Oneapi-Request-Id": input.requestId,
      "X-Accel-Buffering": "no",
    });
    const translator = input.adapter.createStreamTranslator(ctx);
    const outcome = await pipeStream(
      upstream,
      sink,
      translator,
      input.timeouts.streamIdleMs,
      () => call.abort(),
      decoder,
      callAlone,
    );
    const object = input.mode === "completions" ? "text_completion" : "chat.completion.chunk";
    const close = translator.close?.bind(translator);
    const deliver = close
      ? (billed: Usage) => endNativeStream(sink, outcome, billed, close)
      : (billed: Usage) =>
          endStream(
            sink,
            outcome,
            clientWantsUsage(ctx) ? { usage: billed, model: input.requestModel, object } : undefined,
          );
    return {
      ok: true,
      usage: outcome.usage,
      usageNote: outcome.usageNote,
      countedCompletion: outcome.countedCompletion,
      frtMs,
      deliver,
    };
  }
  const raw = await readAll(upstream);
  const passed = informativeReplyHeaders(upstream.headers);
  if (input.mode === "speech") {
    // Audio bytes: forwarded as they are; billed per character of the input text.
    const contentType = String(upstream.headers["content-type"] ?? "audio/mpeg");
    const deliver = () => {
      sink.start(200, {
        ...passed,
        "Content-Type": contentType,
        "Content-Length": raw.length,
        "X-Oneapi-Request-Id": input.requestId,
      });
      sink.end(raw);
    };
    return {
      ok: true,
      usage: { prompt_tokens: speechCharacters(input.body), completion_tokens: 0 },
      countedCompletion: 0,
      frtMs,
      deliver,
    };
  }
  const converted = input.adapter.convertResponse(ctx, raw);
  if (converted.failure) {
    const { status: failed, error } = converted.failure;
    return {
      ok: false,
      status: mapStatusCode(input.channel.status_code_mapping, failed),
      error,
      retryable: isRetryableStatus(failed, input.channel.type),
      responded: false,
      upstreamStatus: failed,
      headers: passed,
    };
  }
  // Transcripts may be plain text, SRT or VTT (response_format): keep the upstream's type.
  const textReply = input.mode === "transcriptions" || input.mode === "translations";
  const contentType = textReply
    ? String(upstream.headers["content-type"] ?? "application/json")
    : "application/json; charset=utf-8";
  const billing = replyUsage(input.mode, converted.body, converted);
  // The usage a chat, completion or embedding reply reports is the usage billed (the upstream's bytes when it was billed as it came).
  const reportsUsage = input.mode === "chat" || input.mode === "completions" || input.mode === "embeddings";
  const deliver = (billed: Usage) => {
    if (!sink.open) return;
    const body = reportsUsage ? replyWithBilledUsage(converted.body, billing.usage, billed) : converted.body;
    sink.start(200, {
      ...passed,
      "Content-Type": contentType,
      "Content-Length": Buffer.byteLength(body),
      "X-Oneapi-Request-Id": input.requestId,
    });
    sink.end(body);
  };
  return { ok: true, ...billing, frtMs, deliver };
}
