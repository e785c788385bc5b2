import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A loopback stand-in for an OpenAI-compatible upstream that answers with recorded-style
 * fixtures, records what it was asked (tests assert on the exact upstream request), and can
 * be switched into fault modes.
 */
export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** When it arrived (epoch ms). */ at?: number;
};

export type Fault =
  | { kind: "status"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "slow"; delayMs: number }
  | { kind: "hang" }
  | { kind: "drop-mid-stream" }
  /** A non-stream reply whose connection drops after its headers and half its body. */
  | { kind: "drop-mid-body" }
  | { kind: "slow-stream"; gapMs: number }
  | { kind: "no-usage" }
  /** Chat replies (whole, and a stream's usage chunk) carry this literal JSON text as their `usage`. */
  | { kind: "usage"; json: string };

export type MockUpstream = {
  url: string;
  requests: RecordedRequest[];
  fault?: Fault;
  /** Headers sent with every reply (an upstream's request id, rate limits, a cookie…). */
  replyHeaders?: Record<string, string>;
  /** Upstream calls aborted by the gateway (client went away, idle timeout). */
  aborted: number;
  close: () => Promise<void>;
};

export const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/upstream/openai/${name}`, import.meta.url), "utf8");

/** A stand-in MP3 body: an ID3 header and bytes covering every value, so any re-encoding shows. */
export const SPEECH_BYTES = Buffer.concat([
  Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00", "latin1"),
  Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)),
]);

function json(res: ServerResponse, status: number, body: unknown) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "x-should-retry": "false" });
  res.end(text);
}

/** A JSON text with its top-level `usage` replaced by the literal text `usage` (which may be malformed on purpose, e.g. 1e400). */
function withUsage(json: string, usage: string): string {
  const reply = JSON.parse(json) as Record<string, unknown>;
  reply.usage = "__USAGE__";
  return JSON.stringify(reply).replace('"__USAGE__"', usage);
}

function streamEvents(text: string, dropUsage: boolean, usage?: string): string[] {
  return text
    .split("\n\n")
    .filter((e) => e.trim())
    .filter((e) => !(dropUsage && e.includes('"choices":[]')))
    .map((e) =>
      usage !== undefined && e.includes('"choices":[]') ? `data: ${withUsage(e.slice("data: ".length), usage)}` : e,
    )
    .map((e) => `${e}\n\n`);
}

export async function startOpenAiMock(options: { apiKey?: string } = {}): Promise<MockUpstream> {
  const mock: MockUpstream = { url: "", requests: [], aborted: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", async () => {
      mock.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, at: Date.now() });
      res.on("close", () => {
        if (!res.writableFinished) mock.aborted += 1;
      });
      for (const [name, value] of Object.entries(mock.replyHeaders ?? {})) res.setHeader(name, value);
      if (
        options.apiKey &&
        req.headers.authorization !== `Bearer ${options.apiKey}` &&
        req.headers["api-key"] !== options.apiKey
      ) {
        return json(res, 401, {
          error: {
            message: "Incorrect API key provided",
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        });
      }
      const fault = mock.fault;
      if (fault?.kind === "status") {
        for (const [name, value] of Object.entries(fault.headers ?? {})) res.setHeader(name, value);
        return json(res, fault.status, fault.body);
      }
      if (fault?.kind === "hang") return; // never answers; the gateway must give up
      if (fault?.kind === "slow") await new Promise((r) => setTimeout(r, fault.delayMs));
      const path = (req.url ?? "").split("?")[0] ?? "";
      if (req.method === "GET" && path.endsWith("/models")) return json(res, 200, fixture("models.json"));
      if (req.method === "GET" && path.endsWith("/dashboard/billing/subscription"))
        return json(res, 200, {
          object: "billing_subscription",
          has_payment_method: true,
          hard_limit_usd: 120,
          soft_limit_usd: 100,
          system_hard_limit_usd: 120,
          access_until: 0,
        });
      if (req.method === "GET" && path.endsWith("/dashboard/billing/usage"))
        return json(res, 200, { object: "list", total_usage: 2050 });
      if (path.endsWith("/embeddings")) {
        // Like OpenAI: floats by default, little-endian float32 base64 when asked (the SDK asks).
        const reply = JSON.parse(fixture("embeddings.json")) as { data: { embedding: number[] | string }[] };
        if ((JSON.parse(body || "{}") as { encoding_format?: string }).encoding_format === "base64") {
          for (const item of reply.data)
            item.embedding = Buffer.from(new Float32Array(item.embedding as number[]).buffer).toString("base64");
        }
        return json(res, 200, reply);
      }
      if (path.endsWith("/images/edits") || path.endsWith("/images/variations")) {
        // Multipart, as the official client sends it: an image part is required, `n` is a form field.
        if (!/name="image"; filename=/.test(body))
          return json(res, 400, {
            error: { message: "image is required", type: "invalid_request_error", param: "image", code: null },
          });
        const n = Number(/name="n"\r\n\r\n(\d+)/.exec(body)?.[1] ?? 1);
        const reply = JSON.parse(fixture("images-generation.json")) as { data: unknown[] };
        reply.data = Array.from({ length: n }, () => reply.data[0]);
        return json(res, 200, reply);
      }
      if (path.endsWith("/edits")) {
        return json(res, 200, {
          object: "edit",
          created: 1735689600,
          choices: [{ text: "What day of the week is it?", index: 0 }],
          usage: { prompt_tokens: 25, completion_tokens: 32, total_tokens: 57 },
        });
      }
      if (path.endsWith("/images/generations")) {
        const request = JSON.parse(body || "{}") as { n?: number };
        const reply = JSON.parse(fixture("images-generation.json")) as { data: unknown[] };
        reply.data = Array.from({ length: request.n ?? 1 }, () => reply.data[0]);
        return json(res, 200, reply);
      }
      if (path.endsWith("/moderations")) return json(res, 200, fixture("moderation.json"));
      if (path.endsWith("/rerank")) return json(res, 200, fixture("rerank.json"));
      if (path.endsWith("/audio/speech")) {
        res.writeHead(200, { "Content-Type": "audio/mpeg" });
        return res.end(SPEECH_BYTES);
      }
      if (path.endsWith("/audio/transcriptions") || path.endsWith("/audio/translations")) {
        // Multipart: the reply format and model are form fields, as the official client sends them.
        const field = (name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)`).exec(body)?.[1];
        const reply = JSON.parse(
          fixture(field("model") === "gpt-4o-transcribe" ? "transcription-usage.json" : "transcription.json"),
        ) as { text: string };
        if (field("response_format") === "text") {
          res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
          return res.end(`${reply.text}\n`);
        }
        return json(res, 200, reply);
      }
      if (path.endsWith("/responses")) {
        // The Responses API: a whole response, or its named events (split mid-event, so reads are fragmented).
        if (!(JSON.parse(body || "{}") as { stream?: boolean }).stream)
          return json(res, 200, fixture("responses.json"));
        res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
        for (const event of fixture("responses-stream.sse")
          .split("\n\n")
          .filter((e) => e.trim())) {
          const frame = `${event}\n\n`;
          res.write(frame.slice(0, frame.length / 2));
          await new Promise((r) => setTimeout(r, 3));
          res.write(frame.slice(frame.length / 2));
        }
        return res.end();
      }
      if (path.endsWith("/chat/completions")) {
        const request = JSON.parse(body || "{}") as { stream?: boolean };
        if (!request.stream) {
          if (fault?.kind === "drop-mid-body") {
            const text = fixture("chat-completion.json");
            res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
            res.write(text.slice(0, text.length / 2));
            setTimeout(() => res.destroy(), 20);
            return;
          }
          if (fault?.kind === "usage") return json(res, 200, withUsage(fixture("chat-completion.json"), fault.json));
          if (fault?.kind === "no-usage") {
            const reply = JSON.parse(fixture("chat-completion.json")) as Record<string, unknown>;
            delete reply.usage;
            return json(res, 200, reply);
          }
          return json(res, 200, fixture("chat-completion.json"));
        }
        res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
        const events = streamEvents(
          fixture("chat-stream.sse"),
          fault?.kind === "no-usage",
          fault?.kind === "usage" ? fault.json : undefined,
        );
        for (const [i, event] of events.entries()) {
          if (res.destroyed) return;
          if (fault?.kind === "drop-mid-stream" && i === 2) {
            res.destroy();
            return;
          }
          res.write(event);
          // Like OpenAI: events some milliseconds apart, and the body ends right after [DONE].
          if (i < events.length - 1)
            await new Promise((r) => setTimeout(r, fault?.kind === "slow-stream" ? fault.gapMs : 5));
        }
        return res.end();
      }
      json(res, 404, { error: { message: "Not found", type: "invalid_request_error", param: null, code: null } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  mock.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  mock.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return mock;
}
