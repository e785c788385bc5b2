// A loopback OpenAI chat upstream that costs next to nothing, in a process of its own: each reply
// is prepared bytes (a whole completion, or a whole stream of chunks ending in the usage chunk and
// [DONE]), so a benchmark measures the relays in front of it, not the mock. The tests' recording
// mock (tests/mocks/openai-upstream.ts) parses every body and paces its stream chunks: right for
// checking behaviour, but it capped the direct runs well below what a relay could do.
import { Buffer } from "node:buffer";
import { createServer } from "node:http";

const id = "chatcmpl-bench";
const created = 1_700_000_000;
const model = "gpt-4o-mini";
const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
const completion = Buffer.from(
  JSON.stringify({
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: "Hi there." }, finish_reason: "stop" }],
    usage,
  }),
);
const chunk = (delta, finish, extra = {}) => ({
  id,
  object: "chat.completion.chunk",
  created,
  model,
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const events = [
  chunk({ role: "assistant", content: "" }, null),
  chunk({ content: "Hi" }, null),
  chunk({ content: " there." }, null),
  chunk({}, "stop"),
  { id, object: "chat.completion.chunk", created, model, choices: [], usage },
];
const stream = Buffer.from(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("")}data: [DONE]\n\n`);
const STREAM_FLAG = Buffer.from('"stream":true');

const server = createServer((req, res) => {
  const parts = [];
  req.on("data", (part) => parts.push(part));
  req.on("end", () => {
    const asksStream = parts.some((part) => part.includes(STREAM_FLAG));
    if (asksStream) {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.end(stream);
    } else {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": completion.length });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(String(server.address().port)));
process.on("SIGTERM", () => process.exit(0));
