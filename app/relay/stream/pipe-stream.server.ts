import { createParser } from "eventsource-parser";
import type { Usage } from "../billing/pricing";
import type { UsageNote } from "../billing/usage-parse";
import type { StreamDecoder, StreamTranslator, UpstreamError, UpstreamReply } from "../adapters/types";
import type { ReplySink } from "../reply-sink";
import { createTokenCounter } from "./token-counter";

export type StreamOutcome = {
  usage?: Usage;
  usageNote?: UsageNote;
  countedCompletion: number;
  error?: UpstreamError;
  ended: "done" | "idle-timeout" | "client-abort" | "upstream-closed";
  /** A chunk carrying usage reached the client. */
  usageSent: boolean;
  /** The id and created time of the stream's first chunk, for a chunk the gateway adds. */
  first?: { id?: unknown; created?: unknown };
};

/**
 * What a stream's closing usage chunk reports: the usage billed, the model the client asked for,
 * and the chunks' object type (legacy completions stream `text_completion`).
 */
export type ClosingUsage = { usage: Usage; model: string; object: string };

/**
 * Ends the client's stream: the error event if the upstream failed mid-way, the usage chunk the
 * client asked for (stream_options.include_usage) when the upstream sent none, then [DONE].
 * Called after billing has committed, so a stream never finishes with its charge still
 * unrecorded, and the usage it reports is the one billed.
 */
export function endStream(sink: ReplySink, outcome: StreamOutcome, closing?: ClosingUsage): void {
  if (!sink.open) return;
  if (outcome.error) sink.write(`data: ${JSON.stringify({ error: { ...outcome.error, param: null } })}\n\n`);
  if (closing && !outcome.usageSent) sink.write(`data: ${usageChunk(outcome, closing)}\n\n`);
  sink.end("data: [DONE]\n\n");
}

/** Ends a native stream (decision 026): the translator frames its own end, given the usage billed and any error. */
export function endNativeStream(sink: ReplySink, outcome: StreamOutcome, billed: Usage, close: NonNullable<StreamTranslator["close"]>): void {
  if (!sink.open) return;
  sink.end(close(billed, outcome.error));
}

/** The usage-only chunk in the shape OpenAI sends it: no choices, the stream's id. */
function usageChunk(outcome: StreamOutcome, { usage, model, object }: ClosingUsage): string {
  const id = typeof outcome.first?.id === "string" ? outcome.first.id : `chatcmpl-${Date.now().toString(36)}`;
  const created = typeof outcome.first?.created === "number" ? outcome.first.created : Math.floor(Date.now() / 1000);
  const { prompt_tokens, completion_tokens } = usage;
  return JSON.stringify({ id, object, created, model, choices: [], usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens } });
}

/** The id and created time of a stream's first chunk (read once per stream). */
function firstChunkIdentity(chunk: string): StreamOutcome["first"] {
  try {
    const parsed = JSON.parse(chunk) as { id?: unknown; created?: unknown };
    return { id: parsed.id, created: parsed.created };
  } catch {
    return {};
  }
}

/**
 * Pipes an upstream SSE body to the client as it arrives: each upstream event is parsed
 * incrementally, translated to OpenAI chunks and written at once. Keeps only what billing needs
 * (the usage chunk, or a running token count). An idle upstream or a departed client aborts the
 * upstream call through `abort`. The client's response is left open for `endStream`.
 */
export function pipeStream(upstream: UpstreamReply, sink: ReplySink, translator: StreamTranslator, idleTimeoutMs: number, abort: () => void, decoder?: StreamDecoder): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    const counter = createTokenCounter();
    let usage: Usage | undefined;
    let usageSent = false;
    let first: StreamOutcome["first"];
    let usageNote: UsageNote | undefined;
    let error: UpstreamError | undefined;
    let settled = false;
    let upstreamEnded = false;
    // The events of one upstream read reach the client in one write (one syscall, one TCP
    // segment) instead of one write each.
    let pending = "";
    const finish = (ended: StreamOutcome["ended"]) => {
      if (settled) return;
      settled = true;
      // Ended by the reply's last event, the upstream body still has its close to come: the idle
      // timer keeps watching it, so an upstream that never closes is let go, not kept forever.
      if (upstreamEnded || ended !== "done") clearTimeout(idleTimer);
      resolve({ usage, usageNote, countedCompletion: usage ? 0 : counter.total, error, ended, usageSent, first });
    };
    const idleTimer = setTimeout(() => onIdle(), idleTimeoutMs);
    const onIdle = () => {
      if (settled) {
        abort();
        return;
      }
      // The client is told why its stream stops short (before [DONE]); it pays for what it got.
      error = { message: `上游流式响应超时（${Math.round(idleTimeoutMs / 1000)} 秒无数据）`, type: "upstream_error", code: "stream_idle_timeout" };
      abort();
      finish("idle-timeout");
    };
    let completed = false;
    // A native-stream translator (decision 026) writes whole frames of its own.
    const framed = translator.close !== undefined;
    const onEvent = (event: { event?: string; data: string }) => {
      if (settled) return;
      const step = translator.push(event.event, event.data);
      // The last usage reported wins, and with it its note (a rejected one leaves the count running).
      if (step.usage) ({ usage, usageNote } = step);
      else if (step.usageNote && !usage) usageNote = step.usageNote;
      if (!usage) counter.add(step.text);
      // A step with usage that forwards chunks forwards its usage with them (a usage-only chunk
      // kept back forwards none).
      if (step.usage && step.chunks.length > 0) usageSent = true;
      if (framed) {
        for (const chunk of step.chunks) pending += chunk;
      } else {
        if (first === undefined && step.chunks.length > 0) first = firstChunkIdentity(step.chunks[0]!);
        for (const chunk of step.chunks) pending += `data: ${chunk}\n\n`;
      }
      if (step.done) completed = true;
      if (step.error) {
        error = step.error;
        abort();
        finish("upstream-closed");
      }
    };
    // SSE unless the adapter frames its stream otherwise (NDJSON, AWS event stream).
    const parser = decoder ? undefined : createParser({ onEvent });
    const ended = () => {
      upstreamEnded = true;
      clearTimeout(idleTimer);
    };
    if (parser) upstream.setEncoding("utf8");
    upstream.on("data", (chunk: string | Buffer) => {
      if (settled) return; // the rest of a completed reply's body: read to its close, not parsed
      idleTimer.refresh(); // re-arms the same timer: no new timer object per chunk
      if (parser) parser.feed(chunk as string);
      else for (const event of decoder!.feed(chunk as Buffer)) onEvent(event);
      if (pending && sink.open) sink.write(pending);
      pending = "";
      if (completed) finish("done");
    });
    upstream.on("end", () => {
      ended();
      finish("done");
    });
    upstream.on("error", () => {
      ended();
      finish("upstream-closed");
    });
    upstream.on("aborted", () => {
      ended();
      finish("upstream-closed");
    });
    sink.onClientGone(() => {
      abort();
      finish("client-abort");
    });
  });
}
