// The least a billing relay has to do per call, written as plainly and cheaply as node:http
// allows, to stand beside the bare relay as a second floor: the bare relay only pipes bytes,
// while any gateway that charges for a call must also
//   - read the whole body and parse it (the model picks the channel and the price),
//   - find the caller's token (here: in a Map),
//   - read the usage from the reply (a whole reply parsed; a stream's events parsed as they pass),
//   - price the call and take it from a balance in memory,
//   - put one line per call on disk (one write per turn of the event loop) before the reply ends.
// Nothing else: no database, no usage log rows, no metrics, no limits, no retries, no error
// mapping. What the gateway costs beyond this relay is its own doing; what this relay costs
// beyond the bare one is the price of charging for a call at all.
import { Buffer } from "node:buffer";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { setImmediate } from "node:timers";
import { join } from "node:path";

const upstream = new URL(process.argv[2]);
const journalPath = join(tmpdir(), `floor-relay-${process.pid}.jsonl`);
const journal = openSync(journalPath, "a");
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const tokens = new Map([["Bearer sk-bench", { userId: 1, tokenId: 1, balance: Number.MAX_SAFE_INTEGER }]]);
const PRICE_PER_TOKEN = 75;

let seq = 0;
let pending = [];
let written;

/** The lines of this turn go to disk in one write; every reply settled in the turn waits for it. */
function journaled() {
  written ??= new Promise((resolve) =>
    setImmediate(() => {
      writeSync(journal, `${pending.join("\n")}\n`);
      pending = [];
      written = undefined;
      resolve();
    }),
  );
  return written;
}

function settle(token, model, usage) {
  const prompt = Number(usage?.prompt_tokens) || 0;
  const completion = Number(usage?.completion_tokens) || 0;
  const charge = (prompt + completion) * PRICE_PER_TOKEN;
  token.balance -= charge;
  seq += 1;
  pending.push(JSON.stringify({ seq, user: token.userId, token: token.tokenId, model, prompt, completion, charge }));
  return journaled();
}

/** Usage from the `data:` events in `text`; returns the unfinished tail to keep for the next read. */
function scanEvents(text, found) {
  let start = 0;
  for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n", start)) {
    const event = text.slice(start, end);
    start = end + 2;
    if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
    const chunk = JSON.parse(event.slice(6));
    if (chunk.usage) found.usage = chunk.usage;
  }
  return text.slice(start);
}

function fail(res, status, message) {
  const body = JSON.stringify({ error: { message, type: "floor_relay" } });
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req, res) => {
  const token = tokens.get(req.headers.authorization);
  if (!token) return fail(res, 401, "invalid token");
  const parts = [];
  req.on("data", (part) => parts.push(part));
  req.on("end", () => {
    const body = Buffer.concat(parts);
    let parsed;
    try {
      parsed = JSON.parse(body.toString());
    } catch {
      return fail(res, 400, "invalid JSON");
    }
    const model = String(parsed.model);
    const stream = parsed.stream === true;
    const forward = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": body.length, Authorization: "Bearer sk-up" },
        agent,
      },
      (reply) => {
        const status = reply.statusCode ?? 502;
        if (!stream) {
          const replyParts = [];
          reply.on("data", (part) => replyParts.push(part));
          reply.on("end", () => {
            const text = Buffer.concat(replyParts);
            const usage = JSON.parse(text.toString()).usage;
            void settle(token, model, usage).then(() => {
              res.writeHead(status, { "Content-Type": "application/json", "Content-Length": text.length });
              res.end(text);
            });
          });
          return;
        }
        // A read is held until the next one comes, so the last goes out with the end in one write.
        res.writeHead(status, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
        const found = { usage: undefined };
        let rest = "";
        let held;
        reply.setEncoding("utf8");
        reply.on("data", (text) => {
          if (held !== undefined) res.write(held);
          held = text;
          rest = scanEvents(rest + text, found);
        });
        reply.on("end", () => {
          void settle(token, model, found.usage).then(() => res.end(held));
        });
      },
    );
    forward.on("error", () => fail(res, 502, "upstream failed"));
    forward.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(String(server.address().port)));
process.on("SIGTERM", () => {
  closeSync(journal);
  rmSync(journalPath, { force: true });
  process.exit(0);
});
