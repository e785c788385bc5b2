import { createParser } from "eventsource-parser";
import type { Usage } from "../billing/pricing";
import { replyWithBilledUsage } from "../billing/billed-usage-body";
import type { UsageNote } from "../billing/usage-parse";
import type { StreamDecoder, StreamTranslator, UpstreamError, UpstreamReply } from "../adapters/types";
import type { ReplySink } from "../reply-sink";
import { idleTimeoutError, interruptedError, type StreamCut } from "./stream-cut";
import { createTokenCounter } from "./token-counter";

export type StreamOutcome = {
  usage?: Usage;
  /** Carries `stream_cut` when the reply stopped short of its end (the log row says so). */
  usageNote?: UsageNote;
  countedCompletion: number;
  /** Why the stream stops short, for the client: the upstream's error, or the gateway's for a cut. */
  error?: UpstreamError;
  ended: "done" | "idle-timeout" | "client-abort" | "upstream-closed";
  /** A chunk carrying usage reached the client. */
  usageSent: boolean;
  /** The upstream's usage-only chunk, kept back for the end of the stream (the client asked for usage). */
  usageFrame?: string;
  /** The id and created time of the stream's first chunk, for a chunk the gateway adds. */
  first?: { id?: unknown; created?: unknown };
  /**
   * The events of the read that completed the reply, not yet written: they go out with the end
   * of the stream, in the same write (one system call and one TCP segment fewer per stream).
   * Empty when the call was alone in flight: its last read went out at once.
   */
  tail: string;
};

/**
 * What a stream's closing usage chunk reports: the usage billed, the model the client asked for,
 * and the chunks' object type (legacy completions stream `text_completion`).
 */
export type ClosingUsage = { usage: Usage; model: string; object: string };

/**
 * Ends the client's stream: the usage chunk the client asked for (stream_options.include_usage) —
 * the upstream's own, reporting the usage billed, or one of ours when it sent none — then
 * [DONE]; or, for a stream that stopped short, the error event in [DONE]'s place: the SDKs raise
 * on it, where a [DONE] would pass the reply off as whole.
 * Called after billing has committed, so a stream never finishes with its charge still
 * unrecorded, and the usage it reports is the one billed.
 */
export function endStream(sink: ReplySink, outcome: StreamOutcome, closing?: ClosingUsage): void {
  if (!sink.open) return;
  let last = outcome.tail;
  if (closing && outcome.usageFrame)
    last += `data: ${replyWithBilledUsage(outcome.usageFrame, outcome.usage, closing.usage)}\n\n`;
  else if (closing && !outcome.usageSent) last += `data: ${usageChunk(outcome, closing)}\n\n`;
  if (outcome.error) last += `data: ${JSON.stringify({ error: { ...outcome.error, param: null } })}\n\n`;
  else last += "data: [DONE]\n\n";
  sink.end(last);
}

/** Ends a native stream (decision 026): the translator frames its own end, given the usage billed and any error. */
export function endNativeStream(
  sink: ReplySink,
  outcome: StreamOutcome,
  billed: Usage,
  close: NonNullable<StreamTranslator["close"]>,
): void {
  if (!sink.open) return;
  sink.end(outcome.tail + close(billed, outcome.error));
}

/** The usage-only chunk in the shape OpenAI sends it: no choices, the stream's id. */
function usageChunk(outcome: StreamOutcome, { usage, model, object }: ClosingUsage): string {
  const id = typeof outcome.first?.id === "string" ? outcome.first.id : `chatcmpl-${Date.now().toString(36)}`;
  const created = typeof outcome.first?.created === "number" ? outcome.first.created : Math.floor(Date.now() / 1000);
  const { prompt_tokens, completion_tokens } = usage;
  return JSON.stringify({
    id,
    object,
    created,
    model,
    choices: [],
    usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
  });
}

/** A chunk with no choices and a usage: the stream's closing usage report. Parsed only when a step reported usage. */
function isUsageOnlyChunk(chunk: string): boolean {
  if (!chunk.includes('"usage"')) return false;
  try {
    const parsed = JSON.parse(chunk) as { choices?: unknown; usage?: unknown };
    return parsed.usage != null && (!Array.isArray(parsed.choices) || parsed.choices.length === 0);
  } catch {
    return false;
  }
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
 * incrementally, translated to OpenAI chunks and written at once, except those of the read that
 * completes the reply (the outcome's `tail`, written with the stream's end) while other calls are
 * in flight (`alone` false): under load the write saved counts, while a call alone would only
 * make its client wait for its billing to see the first byte of a reply that came whole. Keeps
 * only what billing needs (the usage chunk, or a running token count). An idle upstream or a
 * departed client aborts the upstream call through `abort`. The client's response is left open
 * for `endStream`.
 *
 * A reply that stops short of its end — the connection broke, the body closed before the
 * protocol's last event (translator.finished), the upstream went quiet or reported an error —
 * comes back with the error to end the client's stream on and `stream_cut` in its usage note.
 */
export function pipeStream(
  upstream: UpstreamReply,
  sink: ReplySink,
  translator: StreamTranslator,
  idleTimeoutMs: number,
  abort: () => void,
  decoder?: StreamDecoder,
  alone: () => boolean = () => false,
): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    const counter = createTokenCounter();
    let usage: Usage | undefined;
    let usageSent = false;
    let usageFrame: string | undefined;
    let first: StreamOutcome["first"];
    let usageNote: UsageNote | undefined;
    let error: UpstreamError | undefined;
    let cut: StreamCut | undefined;
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
      const note = cut ? { ...usageNote, stream_cut: cut } : usageNote;
      const tail = pending;
      pending = "";
      // The reply's end follows once it is billed: the client's headers, if still unsent, wait for it.
      if (tail) sink.expectEnd?.();
      resolve({
        tail,
        usage,
        usageNote: note,
        countedCompletion: usage ? 0 : counter.total,
        error,
        ended,
        usageSent,
        usageFrame,
        first,
      });
    };
    // The client is told why its stream stops short; it pays for what it got.
    const cutShort = (why: StreamCut, reason: UpstreamError) => {
      cut = why;
      error = reason;
    };
    let completed = false;
    const whole = () => completed || translator.finished?.() === true;
    const idleTimer = setTimeout(() => onIdle(), idleTimeoutMs);
    const onIdle = () => {
      // Settled first: the abort's own events on the body must not read as a broken connection.
      if (!settled) {
        // A whole reply whose upstream holds its body open is let go without an error.
        if (whole()) finish("done");
        else {
          cutShort("idle_timeout", idleTimeoutError(idleTimeoutMs));
          finish("idle-timeout");
        }
      }
      abort();
    };
    // A native-stream translator (decision 026) writes whole frames of its own.
    const framed = translator.close !== undefined;
    const onEvent = (event: { event?: string; data: string }) => {
      if (settled) return;
      const step = translator.push(event.event, event.data);
      // The last usage reported wins, and with it its note (a rejected one leaves the count running).
      if (step.usage) ({ usage, usageNote } = step);
      else if (step.usageNote && !usage) usageNote = step.usageNote;
      if (!usage) counter.add(step.text);
      if (framed) {
        for (const chunk of step.chunks) pending += chunk;
        if (step.usage && step.chunks.length > 0) usageSent = true;
      } else {
        if (first === undefined && step.chunks.length > 0) first = step.identity ?? firstChunkIdentity(step.chunks[0]!);
        const reportsUsage = step.usage !== undefined || step.usageNote !== undefined;
        for (const chunk of step.chunks) {
          // The usage-only chunk the client asked for waits for the end, where it reports the
          // usage billed (endStream); a content chunk that carries usage goes out as it came.
          if (reportsUsage && (step.usageOnly ?? isUsageOnlyChunk(chunk))) usageFrame = chunk;
          else {
            pending += `data: ${chunk}\n\n`;
            if (step.usage) usageSent = true;
          }
        }
      }
      if (step.done) completed = true;
      if (step.error) {
        cutShort("upstream_error", step.error);
        finish("upstream-closed");
        abort();
      }
    };
    // SSE unless the adapter frames its stream otherwise (NDJSON, AWS event stream).
    const parser = decoder ? undefined : createParser({ onEvent });
    const ended = () => {
      upstreamEnded = true;
      clearTimeout(idleTimer);
    };
    const flush = () => {
      if (pending && sink.open) sink.write(pending);
      pending = "";
    };
    if (parser) upstream.setEncoding("utf8");
    upstream.on("data", (chunk: string | Buffer) => {
      if (settled) return; // the rest of a completed reply's body: read to its close, not parsed
      idleTimer.refresh(); // re-arms the same timer: no new timer object per chunk
      if (parser) parser.feed(chunk as string);
      else for (const event of decoder!.feed(chunk as Buffer)) onEvent(event);
      if (completed) {
        if (alone()) flush();
        finish("done");
      } else if (!settled) flush();
    });
    upstream.on("end", () => {
      ended();
      if (settled) return;
      // A last event whose closing blank line never came is still an event, not a cut.
      if (parser) {
        parser.feed("\n\n");
        if (settled) return;
      }
      // Only a protocol that marks its end can tell a body closed early from a whole reply.
      if (translator.finished && !whole()) cutShort("ended_early", interruptedError("ended_early"));
      finish(cut ? "upstream-closed" : "done");
    });
    const broken = () => {
      ended();
      if (!settled && !whole()) cutShort("connection_lost", interruptedError("connection_lost"));
      finish("upstream-closed");
    };
    upstream.on("error", broken);
    upstream.on("aborted", broken);
    sink.onClientGone(() => {
      abort();
      finish("client-abort");
    });
  });
}
