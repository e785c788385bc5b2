/**
 * What forwarding a client's JSON costs per request, the two ways side by side in one run: the
 * gateway's byte edits (the repeated-key scan every body gets, then the mapped model or the usage
 * a stream is asked for edited into the bytes) against the parse-and-stringify it replaced (the
 * adapter's fallback when it has no bytes: the parsed body re-serialised with the change).
 *
 *   npm run bench:body-edit
 */
import { openAiPayload } from "../app/relay/adapters/shared/openai-payload";
import type { AdapterContext } from "../app/relay/adapters/types";
import { keepLastOfRepeated } from "../app/relay/json-edit";

function chatText(kb: number, extra: string): string {
  const turns = Array.from({ length: Math.max(1, Math.ceil((kb * 1024) / 520)) }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: `${"lorem ipsum dolor sit amet ".repeat(18)}${i}`,
  }));
  return `{"model":"gpt-4o-mini",${extra}"seed":9223372036854775807,"temperature":1.0,"messages":${JSON.stringify(turns)}}`;
}

const CASES = [
  {
    name: "stream, usage asked for (member added)",
    extra: `"stream":true,`,
    stream: true,
    upstreamModel: "gpt-4o-mini",
  },
  {
    name: "stream, include_usage false (member edited)",
    extra: `"stream":true,"stream_options":{"include_usage":false},`,
    stream: true,
    upstreamModel: "gpt-4o-mini",
  },
  {
    name: "non-stream, mapped model (member edited)",
    extra: "",
    stream: false,
    upstreamModel: "gpt-4o-mini-2024-07-18",
  },
  { name: "non-stream, nothing to change", extra: "", stream: false, upstreamModel: "gpt-4o-mini" },
];

function microseconds(run: () => unknown): number {
  // Warm long enough for the optimising compiler to have both paths, as in a gateway in service.
  for (let i = 0; i < 20_000; i += 1) run();
  const rounds = 5;
  const perRound = 10_000;
  const samples: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < perRound; i += 1) run();
    samples.push(Number(process.hrtime.bigint() - started) / perRound / 1_000);
  }
  return samples.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

console.log("\nforwarding a client's JSON body, µs per request (median of 5 rounds), this machine\n");
console.log(
  "| body | case | byte edits µs | parse-and-stringify µs | edits / stringify | bytes identical but the edit |",
);
console.log("|---|---|---|---|---|---|");
for (const kb of [1, 60]) {
  for (const c of CASES) {
    const text = chatText(kb, c.extra);
    const raw = Buffer.from(text);
    const body = JSON.parse(text) as Record<string, unknown>;
    const ctx = {
      mode: "chat",
      body,
      upstreamModel: c.upstreamModel,
      requestModel: "gpt-4o-mini",
      stream: c.stream,
      rawJson: raw,
    } as unknown as AdapterContext;
    const parsedOnly = { ...ctx, rawJson: undefined };
    const edited = () => {
      ctx.rawJson = keepLastOfRepeated(raw) ?? raw;
      return openAiPayload(ctx, true);
    };
    const stringified = () => openAiPayload(parsedOnly, true);
    const edits = microseconds(edited);
    const stringify = microseconds(stringified);
    const kept = String(edited()).includes('"seed":9223372036854775807,"temperature":1.0');
    console.log(
      `| ${kb} KB | ${c.name} | ${edits.toFixed(2)} | ${stringify.toFixed(2)} | ${(edits / stringify).toFixed(2)} | ${kept ? "yes" : "NO"} |`,
    );
  }
}
