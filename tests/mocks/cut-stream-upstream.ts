import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { readBody } from "./http-helpers";
import type { RecordedRequest } from "./openai-upstream";
import { listen } from "./loopback";

/**
 * A loopback upstream that streams each protocol's recorded reply (OpenAI chat and legacy
 * completions, Anthropic Messages, Gemini alt=sse, OpenAI Responses), an event every few
 * milliseconds, and can break the stream off after its first `after` events: the connection
 * reset, the body ended cleanly without the rest, or the body left open and silent.
 */
export type StreamBreak = { after: number; how: "reset" | "end" | "stall" };

export type CutStreamMock = {
  url: string;
  requests: RecordedRequest[];
  /** How the next streams break off; none: the whole recorded stream, then the end of the body. */
  cut?: StreamBreak;
  close: () => Promise<void>;
};

const fixture = (dir: string, name: string) =>
  readFileSync(new URL(`../fixtures/upstream/${dir}/${name}`, import.meta.url), "utf8");

/** The recorded stream a path is answered with (undefined: not a streaming endpoint this mock serves). */
function streamFor(path: string): string | undefined {
  if (path.endsWith("/chat/completions")) return fixture("openai", "chat-stream.sse");
  if (path.endsWith("/completions")) return fixture("openai", "completions-stream.sse");
  if (path.endsWith("/messages")) return fixture("anthropic", "stream-text.sse");
  if (path.endsWith(":streamGenerateContent")) return fixture("gemini-native", "stream.sse");
  if (path.endsWith("/responses")) return fixture("openai", "responses-stream.sse");
  return undefined;
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startCutStreamMock(): Promise<CutStreamMock> {
  const mock: CutStreamMock = { url: "", requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const stream = streamFor(new URL(req.url ?? "/", "http://mock").pathname);
      if (req.method !== "POST" || !stream) {
        res.writeHead(404, { "Content-Type": "application/json" });
        return void res.end(
          JSON.stringify({ error: { message: "not found", type: "invalid_request_error", param: null, code: null } }),
        );
      }
      const cut = mock.cut;
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      const events = stream.split("\n\n").filter((e) => e.trim());
      for (const [i, event] of events.entries()) {
        if (cut && i === cut.after) break;
        res.write(`${event}\n\n`);
        await wait(5);
      }
      if (!cut) return void res.end();
      // What was written reaches the gateway before the break.
      await wait(30);
      if (cut.how === "end") res.end();
      else if (cut.how === "reset") res.socket?.resetAndDestroy();
    })();
  });
  const listening = await listen(server);
  mock.url = listening.url;
  mock.close = listening.close;
  return mock;
}
