import type { ServerResponse } from "node:http";

/**
 * Writes a stream body in pieces cut at fixed offsets that ignore event boundaries (an SSE event
 * or a binary event-stream message split across reads), pausing between pieces so the gateway
 * reads them separately.
 */
export async function writeFragmented(
  res: ServerResponse,
  body: string | Buffer,
  pieceBytes = 37,
  gapMs = 3,
): Promise<void> {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  for (let at = 0; at < bytes.length; at += pieceBytes) {
    if (res.destroyed) return;
    res.write(bytes.subarray(at, at + pieceBytes));
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  res.end();
}
