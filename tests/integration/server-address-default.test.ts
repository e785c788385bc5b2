import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type StartedServer } from "../support/server";

/**
 * Chat links and payment callbacks are built on ServerAddress; while the operator has not set it,
 * its default must reach this server, which startServer puts on a free port (PORT), never 3000.
 * Its own server, so no other test's saved ServerAddress is in the way.
 */
let server: StartedServer;

beforeAll(async () => {
  server = await startServer({ kind: "pglite" });
});
afterAll(async () => {
  await server?.stop();
});

describe("the default ServerAddress follows PORT", () => {
  it("/api/status reports http://localhost:<the port the server listens on>", async () => {
    const port = new URL(server.baseUrl).port;
    expect(port).not.toBe("3000");
    const res = await fetch(`${server.baseUrl}/api/status`);
    const status = ((await res.json()) as { data: { server_address: string } }).data;
    expect(status.server_address).toBe(`http://localhost:${port}`);
  });
});
