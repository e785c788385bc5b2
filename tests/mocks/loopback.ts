import { readFileSync } from "node:fs";
import type { Server, ServerResponse } from "node:http";
import type { RecordedRequest } from "./openai-upstream";

/** Shared by the Chinese providers' mocks: listening on loopback, fixtures, fragmented stream bodies. */
export type { RecordedRequest };

export async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const providerFixture = (provider: string, name: string) =>
  readFileSync(new URL(`../fixtures/upstream/${provider}/${name}`, import.meta.url), "utf8");

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes a stream body with every event cut in two at its middle byte (inside a multi-byte
 * character, often), each piece a separate write a few ms apart: the gateway reads events split
 * across chunks, as a real network delivers them.
 */
export async function writeFragmented(res: ServerResponse, body: string, separator = "\n\n"): Promise<void> {
  const events = body.split(separator).filter((e) => e.length > 0);
  for (const event of events) {
    const bytes = Buffer.from(`${event}${separator}`);
    const middle = Math.floor(bytes.length / 2);
    res.write(bytes.subarray(0, middle));
    await pause(3);
    res.write(bytes.subarray(middle));
    await pause(3);
  }
  res.end();
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** What a mock does instead of answering normally: an HTTP status with a body, or a 200 body that is the provider's error. */
export type ProviderFault = { kind: "status"; status: number; body: unknown } | { kind: "error-body"; body: unknown };

/** Applies a fault; true when one answered. */
export function answerFault(res: ServerResponse, fault: ProviderFault | undefined): boolean {
  if (!fault) return false;
  sendJson(res, fault.kind === "status" ? fault.status : 200, fault.body);
  return true;
}
