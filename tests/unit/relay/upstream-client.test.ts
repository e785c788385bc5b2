import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readAll, sendUpstream } from "~/relay/upstream-client.server";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** An upstream that drops the second request of every kept-alive connection without answering. */
async function upstreamDroppingReusedConnections() {
  const seen = { connections: 0, answered: 0 };
  server = createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    if (socket.served > 1) {
      socket.destroy(); // as an upstream does when it closed an idle connection
      return;
    }
    req.resume();
    req.on("end", () => {
      seen.answered += 1;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ n: seen.answered }));
    });
  });
  server.on("connection", () => (seen.connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, seen };
}

const call = (url: string) =>
  sendUpstream(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
    signal: new AbortController().signal,
    connectTimeoutMs: 2000,
  }).then(async (res) => ({
    status: res.statusCode,
    body: JSON.parse((await readAll(res)).toString()) as { n: number },
  }));

describe("sendUpstream", () => {
  it("sends a request again on a fresh connection when a pooled one turns out closed", async () => {
    const { url, seen } = await upstreamDroppingReusedConnections();
    expect(await call(url)).toEqual({ status: 200, body: { n: 1 } });
    // The pooled socket is reused and dropped; the call still succeeds, on a new connection.
    expect(await call(url)).toEqual({ status: 200, body: { n: 2 } });
    expect(seen.connections).toBe(2);
  });

  it("does not retry a failure on a fresh connection", async () => {
    server = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    let connections = 0;
    server.on("connection", () => (connections += 1));
    await expect(call(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).rejects.toThrow(/socket hang up/);
    expect(connections).toBe(1);
  });
});
