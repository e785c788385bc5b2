import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeSink } from "~/relay/reply-sink";

/**
 * What a client's socket receives, read by read, from a reply written through nodeSink by
 * `write` (given the response once the request arrived).
 */
async function readsOf(write: (res: ServerResponse) => void): Promise<string[]> {
  server = createServer((_req, res) => write(res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
  socket.setEncoding("utf8");
  const reads: string[] = [];
  socket.on("data", (text: string) => reads.push(text));
  socket.write("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  await once(socket, "end");
  return reads;
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

const sse = { "Content-Type": "text/event-stream; charset=utf-8" };
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("nodeSink", () => {
  it("sends a stream's headers at once, before its first event, so the client sees the reply begin", async () => {
    const reads = await readsOf(async (res) => {
      const sink = nodeSink(res);
      sink.start(200, sse);
      await later(30);
      sink.end("data: [DONE]\n\n");
    });
    expect(reads[0]).toMatch(/^HTTP\/1.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    expect(reads.slice(1).join("")).toContain("data: [DONE]");
  });

  it("holds the headers of a stream that arrived whole until its end, and sends them together", async () => {
    const reads = await readsOf(async (res) => {
      const sink = nodeSink(res);
      sink.start(200, sse);
      sink.expectEnd?.();
      await later(30);
      sink.end('data: {"choices":[]}\n\ndata: [DONE]\n\n');
    });
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/^HTTP\/1.1 200 OK\r\n[\s\S]*\r\n\r\n[\s\S]*data: \[DONE\]/);
  });
});
