import type { StreamDecoder, StreamEvent } from "../types";

/**
 * Newline-delimited JSON (Ollama, Cohere): one event per line. Bytes are kept until their line
 * ends, so a line split across reads — even inside a multi-byte character — decodes whole.
 */
export function createNdjsonDecoder(): StreamDecoder {
  let rest: Buffer = Buffer.alloc(0);
  return {
    feed(chunk): StreamEvent[] {
      const bytes = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      const events: StreamEvent[] = [];
      let start = 0;
      for (let nl = bytes.indexOf(0x0a, start); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
        const line = bytes.toString("utf8", start, nl).trim();
        if (line) events.push({ data: line });
        start = nl + 1;
      }
      rest = bytes.subarray(start);
      return events;
    },
  };
}
