import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from "node:http";

/**
 * The server's response class (createServer's `ServerResponse` option): it notes when its head
 * went out and whether it is an event stream, which the relay's metrics read when it closes.
 *
 * Before, the relay replaced `writeHead` on each response object. An own method per object gave
 * every relay response a shape of its own, and node's code that handles every response (head,
 * writes, end) ran slower for it: the call's CPU fell by about a tenth without it
 * (docs/decisions/039). A class method costs nothing per response.
 */
export class ObservedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** `performance.now()` when the head was written (0: not yet). */
  headAt = 0;
  /** The head said `text/event-stream`. */
  eventStream = false;
}

type HeadArgs = [
  number,
  (string | OutgoingHttpHeaders | OutgoingHttpHeader[])?,
  (OutgoingHttpHeaders | OutgoingHttpHeader[])?,
];
const writeHead = ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: HeadArgs) => ServerResponse;

// On the prototype rather than as an override, so that every overload of writeHead passes through
// untouched. Node calls it for an implicit head too (end() or write() without one).
ObservedResponse.prototype.writeHead = function (this: ObservedResponse, ...args: HeadArgs) {
  if (this.headAt === 0) {
    this.headAt = performance.now();
    // Headers handed to writeHead are not kept where getHeader finds them: read them here.
    const given = typeof args[1] === "object" ? args[1] : args[2];
    this.eventStream = isEventStream(this.getHeader("content-type") ?? contentTypeIn(given));
  }
  return writeHead.apply(this, args);
} as ObservedResponse["writeHead"];

function contentTypeIn(headers: unknown): unknown {
  if (!headers || typeof headers !== "object" || Array.isArray(headers)) return undefined;
  const record = headers as Record<string, unknown>;
  return record["Content-Type"] ?? record["content-type"];
}

function isEventStream(contentType: unknown): boolean {
  return String(contentType ?? "").startsWith("text/event-stream");
}
