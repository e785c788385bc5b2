import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ObservedResponse } from "~/utils/observed-response.server";
import { observeRelayCall } from "~/relay/observe-call.server";

/**
 * The server's responses note when their head went out and whether it was an event stream, for
 * the relay's time-to-first-byte and stream metrics: checked over real HTTP, with the head
 * written each way a handler writes one.
 */
async function observe(write: (res: ObservedResponse) => void): Promise<{ res: ObservedResponse; body: string }> {
  let seen: ObservedResponse | undefined;
  server = createServer({ ServerResponse: ObservedResponse }, (_req, res) => {
    seen = res;
    write(res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const reply = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const body = await reply.text();
  return { res: seen!, body };
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

describe("ObservedResponse", () => {
  it("notes when writeHead sent the head, and that headers given to it named an event stream", async () => {
    const before = performance.now();
    const { res, body } = await observe((res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8" });
      res.end("data: [DONE]\n\n");
    });
    expect(body).toBe("data: [DONE]\n\n");
    expect(res.headAt).toBeGreaterThanOrEqual(before);
    expect(res.headAt).toBeLessThanOrEqual(performance.now());
    expect(res.eventStream).toBe(true);
  });

  it("reads the content type from a status message form and from setHeader", async () => {
    const withMessage = await observe((res) => {
      res.writeHead(200, "OK", { "content-type": "text/event-stream" });
      res.end();
    });
    expect(withMessage.res.eventStream).toBe(true);
    const fromSetHeader = await observe((res) => {
      res.setHeader("Content-Type", "text/event-stream");
      res.writeHead(200);
      res.end();
    });
    expect(fromSetHeader.res.eventStream).toBe(true);
  });

  it("notes an implicit head (end without writeHead) and a JSON reply as not a stream", async () => {
    const { res, body } = await observe((res) => {
      res.setHeader("Content-Type", "application/json");
      res.end("{}");
    });
    expect(body).toBe("{}");
    expect(res.headAt).toBeGreaterThan(0);
    expect(res.eventStream).toBe(false);
  });

  it("is observed by the relay without a property added to the response object", async () => {
    // A method set on each response gave relay responses a shape of their own, and node's code
    // for every response ran slower for it (decision 039).
    let added: string[] = [];
    const { res } = await observe((res) => {
      const before = Object.keys(res);
      observeRelayCall(res.req, res, "req-shape", "/v1/chat/completions");
      added = Object.keys(res).filter((key) => !before.includes(key) && !key.startsWith("_"));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
    expect(added).toEqual([]);
    expect(Object.hasOwn(res, "writeHead")).toBe(false);
    expect(res.headAt).toBeGreaterThan(0);
  });
});
