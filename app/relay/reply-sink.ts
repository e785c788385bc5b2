import type { ServerResponse } from "node:http";
import { withCors } from "./http.server";

/**
 * Where a relay reply goes. The relay's own HTTP path writes to a node ServerResponse; the
 * playground (a Remix route) streams into a web ReadableStream or collects the whole reply for
 * its no-JavaScript form. The pipeline only ever talks to this interface.
 */
export interface ReplySink {
  start(status: number, headers: Record<string, string | number>): void;
  write(chunk: string | Buffer): void;
  end(chunk?: string | Buffer): void;
  /**
   * The reply is whole and its end follows shortly (once billed): headers not sent yet wait to go
   * out with it instead of on their own.
   */
  expectEnd?(): void;
  /** Headers have gone out: from here on a failure can no longer change the status. */
  readonly started: boolean;
  /** Still accepting writes (not ended, client not gone). */
  readonly open: boolean;
  /** Called once if the client leaves before the reply ended. */
  onClientGone(listener: () => void): void;
}

export function nodeSink(res: ServerResponse): ReplySink {
  return new NodeSink(res);
}

// A class, not a literal of closures: one small object per request instead of six functions.
class NodeSink implements ReplySink {
  private bodyWritten = false;
  private ending = false;

  constructor(private readonly res: ServerResponse) {}

  start(status: number, headers: Record<string, string | number>): void {
    this.res.writeHead(status, withCors(headers));
    // A whole reply's headers go out with its body, in one write. A stream's go out with its
    // first event when that arrived in the same read (the usual case: one write saved), else at
    // the end of this turn of the event loop, so the client sees the reply begin at once. A
    // stream that arrived whole goes out in one write with its end (expectEnd).
    if (String(headers["Content-Type"] ?? "").startsWith("text/event-stream")) {
      setImmediate(() => {
        if (!this.bodyWritten && !this.ending && !this.res.destroyed) this.res.flushHeaders();
      });
    }
  }

  expectEnd(): void {
    this.ending = true;
  }

  write(chunk: string | Buffer): void {
    this.bodyWritten = true;
    this.res.write(chunk);
  }

  end(chunk?: string | Buffer): void {
    this.bodyWritten = true;
    if (chunk === undefined) this.res.end();
    else this.res.end(chunk);
  }

  get started(): boolean {
    return this.res.headersSent;
  }

  get open(): boolean {
    return !this.res.writableEnded && !this.res.destroyed;
  }

  onClientGone(listener: () => void): void {
    const res = this.res;
    res.on("close", () => {
      if (!res.writableFinished) listener();
    });
  }
}

/** A sink whose reply becomes a web Response as soon as it starts (streaming resource routes). */
export function webStreamSink(): { sink: ReplySink; response: Promise<Response> } {
  let resolveResponse!: (r: Response) => void;
  const response = new Promise<Response>((r) => (resolveResponse = r));
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let started = false;
  let open = true;
  const goneListeners: (() => void)[] = [];
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => {
      if (!open) return;
      open = false;
      for (const l of goneListeners) l();
    },
  });
  const sink: ReplySink = {
    start(status, headers) {
      started = true;
      const plain = Object.fromEntries(
        Object.entries(headers)
          .filter(([k]) => k.toLowerCase() !== "content-length")
          .map(([k, v]) => [k, String(v)]),
      );
      resolveResponse(new Response(stream, { status, headers: plain }));
    },
    write(chunk) {
      if (open) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : new Uint8Array(chunk));
    },
    end(chunk) {
      if (!open) return;
      if (chunk !== undefined) sink.write(chunk);
      open = false;
      controller.close();
    },
    get started() {
      return started;
    },
    get open() {
      return open;
    },
    onClientGone: (listener) => void goneListeners.push(listener),
  };
  return { sink, response };
}

/** Collects a whole non-stream reply (the playground without JavaScript). */
export function bufferSink(): { sink: ReplySink; result: () => { status: number; body: string } } {
  let status = 0;
  const chunks: Buffer[] = [];
  let open = true;
  const sink: ReplySink = {
    start: (s) => void (status = s),
    write: (chunk) => void chunks.push(Buffer.from(chunk)),
    end(chunk) {
      if (chunk !== undefined) chunks.push(Buffer.from(chunk));
      open = false;
    },
    get started() {
      return status !== 0;
    },
    get open() {
      return open;
    },
    onClientGone: () => undefined,
  };
  return { sink, result: () => ({ status, body: Buffer.concat(chunks).toString("utf8") }) };
}
