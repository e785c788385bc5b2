import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type StartedServer } from "../support/server";

/**
 * A client's mistake (a method a route does not take, a page that does not exist) is answered
 * with its 4xx and costs the log nothing: a fuzzer or a scanner sending thousands of them must
 * not fill the disk with stack traces. The server is this file's own, to read its output.
 */
const kind = inject("dbKind");
let server: StartedServer;

beforeAll(async () => {
  server = await startServer({ kind, worker: false });
});
afterAll(async () => {
  await server?.stop();
});

// Every one is answered by Remix itself with a 4xx; none reaches any code of ours.
const CLIENT_ERRORS: { method: string; path: string; status: number }[] = [
  { method: "POST", path: "/api/status", status: 405 },
  { method: "PUT", path: "/api/status", status: 405 },
  { method: "DELETE", path: "/about", status: 405 },
  { method: "POST", path: "/about", status: 405 },
  { method: "POST", path: "/no-such-page", status: 405 },
  { method: "OPTIONS", path: "/about", status: 405 },
  { method: "POST", path: "/about.data", status: 405 },
];
const ROUNDS = 10;

describe("expected client errors do not flood the server log", () => {
  it("hundreds of bytes at most for 70 refused requests, and never a stack trace", async () => {
    // Whatever start-up still prints is not counted.
    await new Promise((r) => setTimeout(r, 500));
    const before = server.output().length;
    for (let round = 0; round < ROUNDS; round++) {
      for (const { method, path, status } of CLIENT_ERRORS) {
        const res = await fetch(server.baseUrl + path, {
          method,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: "a=1",
          redirect: "manual",
        });
        await res.arrayBuffer();
        expect(res.status, `${method} ${path}`).toBe(status);
      }
    }
    await new Promise((r) => setTimeout(r, 300));
    const written = server.output().slice(before);
    expect(written).not.toContain("    at ");
    expect(written.length).toBeLessThan(500);
  });
});
