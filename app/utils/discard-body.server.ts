import type { IncomingMessage } from "node:http";

/** Bytes of an unwanted body read and thrown away at most, so that the refusal reaches the client. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * Reads a request body nobody wants to its end and drops it (any earlier reader is detached).
 * Closing a socket the client is still writing to makes the kernel answer with a reset and the
 * client never sees the refusal (a 413, a 404); reading on lets it arrive first.
 */
export function discardBody(req: IncomingMessage): void {
  let discarded = 0;
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    // A client that keeps sending far past any honest body loses its connection.
    if (discarded > MAX_DISCARDED_BYTES) req.socket.destroy();
  });
  req.on("error", () => undefined);
  req.resume();
}
