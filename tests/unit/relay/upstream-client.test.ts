import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readAll, sendUpstream, UpstreamAbortError, UpstreamCall } from "~/relay/upstream-client.server";

let server: Server | undefined;
// Connections the pool opened ahead and never used are closed too: close() alone waits for them.
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()).closeAllConnections() : resolve())),
);

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
    await expect(call(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).rejects.toThrow(
      /other side closed/,
    );
    expect(connections).toBe(1);
  });

  it("gives a reply's repeated headers as node does: joined, the first of a single-valued one, set-cookie as a list", async () => {
    // Written byte for byte: node's own server would merge the repeats before they reach the wire.
    server = createServer();
    server.on("connection", (socket) =>
      socket.once("data", () =>
        socket.end(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nRetry-After: 7\r\nRetry-After: 9\r\n" +
            "X-Ratelimit-Remaining-Requests: 59\r\nX-Ratelimit-Remaining-Requests: 99\r\nSet-Cookie: a=1\r\n" +
            "Content-Length: 2\r\nConnection: close\r\n\r\n{}",
        ),
      ),
    );
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const reply = await sendUpstream(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: "GET",
      headers: {},
      connectTimeoutMs: 2000,
    });
    await readAll(reply);
    expect(reply.headers["x-ratelimit-remaining-requests"]).toBe("59, 99");
    expect(reply.headers["retry-after"]).toBe("7");
    expect(reply.headers["set-cookie"]).toEqual(["a=1"]);
    expect(reply.headers["content-type"]).toBe("application/json");
  });

  it("ends a call whose upstream never answers at its deadline, and a stream when aborted, closing the upstream's connection", async () => {
    // The upstream sees its connection close: that is what stops it generating a reply nobody reads.
    const closed: Record<string, Promise<void>> = {};
    server = createServer((req, res) => {
      closed[req.url!] = new Promise((resolve) => req.socket.once("close", resolve));
      req.resume();
      if (req.url === "/silent") return; // accepts, never answers
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write("data: 1\n\n");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const silent = new UpstreamCall();
    silent.expireAfter(150);
    const started = Date.now();
    await expect(
      sendUpstream(`${base}/silent`, { method: "GET", headers: {}, connectTimeoutMs: 2000, call: silent }),
    ).rejects.toBeInstanceOf(UpstreamAbortError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await closed["/silent"];

    const streaming = new UpstreamCall();
    const reply = await sendUpstream(`${base}/stream`, {
      method: "GET",
      headers: {},
      connectTimeoutMs: 2000,
      call: streaming,
    });
    const first = await new Promise<string>((resolve) => reply.once("data", (chunk: Buffer) => resolve(String(chunk))));
    expect(first).toBe("data: 1\n\n");
    const ended = new Promise<unknown>((resolve) => reply.once("error", resolve));
    streaming.abort();
    expect(await ended).toBeInstanceOf(UpstreamAbortError);
    await closed["/stream"];
  });
});
