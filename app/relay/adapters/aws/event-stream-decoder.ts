import { EventStreamCodec } from "@smithy/core/event-streams";
import type { StreamDecoder, StreamEvent } from "../types";

/**
 * AWS event-stream framing (application/vnd.amazon.eventstream) → the Anthropic events inside.
 * Each message is: a 12-byte prelude (total length, headers length, prelude CRC32), headers,
 * payload, message CRC32. Bytes are buffered until a whole message is in; the codec checks both
 * CRCs and parses the headers. A `chunk` event's payload is `{"bytes":"<base64>"}` wrapping one
 * Anthropic stream event; an exception (or error) message becomes an Anthropic `error` event.
 */
const PRELUDE_BYTES = 12;
/** Far above any real message; a length beyond it means the framing is lost. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

function errorEvent(type: string, message: string): StreamEvent {
  return { event: "error", data: JSON.stringify({ type: "error", error: { type, message } }) };
}

function headerText(headers: Record<string, { type: string; value: unknown }>, name: string): string | undefined {
  const header = headers[name];
  return header && header.type === "string" ? String(header.value) : undefined;
}

export function createEventStreamDecoder(): StreamDecoder {
  const codec = new EventStreamCodec(
    (bytes) => utf8Decoder.decode(bytes),
    (text) => utf8Encoder.encode(text),
  );
  let buffer: Buffer = Buffer.alloc(0);
  let broken = false;

  const toEvent = (message: Buffer): StreamEvent | undefined => {
    const { headers, body } = codec.decode(message);
    const kind = headerText(headers, ":message-type") ?? "event";
    const payload = utf8Decoder.decode(body);
    if (kind === "exception") {
      let text = payload;
      try {
        text = String((JSON.parse(payload) as { message?: unknown }).message ?? payload);
      } catch {}
      return errorEvent(headerText(headers, ":exception-type") ?? "exception", text);
    }
    if (kind === "error")
      return errorEvent(
        headerText(headers, ":error-code") ?? "error",
        headerText(headers, ":error-message") ?? payload,
      );
    if (headerText(headers, ":event-type") !== "chunk") return undefined;
    const bytes = (JSON.parse(payload) as { bytes?: unknown }).bytes;
    if (typeof bytes !== "string") return undefined;
    return { data: Buffer.from(bytes, "base64").toString("utf8") };
  };

  return {
    feed(chunk: Buffer): StreamEvent[] {
      if (broken) return [];
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      const events: StreamEvent[] = [];
      while (buffer.length >= PRELUDE_BYTES) {
        const total = buffer.readUInt32BE(0);
        if (total < PRELUDE_BYTES + 4 || total > MAX_MESSAGE_BYTES) {
          broken = true;
          events.push(errorEvent("stream_framing_error", `event stream message length ${total} is invalid`));
          break;
        }
        if (buffer.length < total) break;
        // A copy: the codec reads through the underlying ArrayBuffer with the view's offset, and
        // the rest of the buffer must not be kept alive by a message already handled.
        const message = Buffer.from(buffer.subarray(0, total));
        buffer = buffer.subarray(total);
        try {
          const event = toEvent(message);
          if (event) events.push(event);
        } catch (error) {
          broken = true;
          events.push(
            errorEvent("stream_framing_error", `event stream message unreadable: ${(error as Error).message}`),
          );
          break;
        }
      }
      return events;
    },
  };
}
