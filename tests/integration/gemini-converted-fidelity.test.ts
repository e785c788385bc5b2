import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../support/api";
import { setUpConvertedChannels } from "../support/converted-channels";
import { uniqueModel } from "../support/relay";

/**
 * The Gemini surface on OpenAI channels through the real server, with a scripted upstream that
 * records what it is sent: the generation fields with an OpenAI counterpart go up (top_k only to
 * a compatible server), cached and thought tokens and token logprobs come back, and a stream's tool
 * calls leave one by one as each is complete, with no empty text part.
 */
type Upstream = { url: string; bodies: Record<string, any>[]; close: () => Promise<void> };

const USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 40,
  total_tokens: 1240,
  prompt_tokens_details: { cached_tokens: 1000 },
  completion_tokens_details: { reasoning_tokens: 15 },
};
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-g",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A stream with reasoning, then two tool calls whose arguments arrive in fragments, then usage. */
const TWO_CALL_STREAM = [
  chunk({ role: "assistant", reasoning_content: "thinking it over" }),
  chunk({
    tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "weather", arguments: '{"city":' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({
    tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "time", arguments: '{"zone":' } }],
  }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '"CET"}' } }] }),
  chunk({}, "tool_calls"),
  { id: "chatcmpl-g", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: USAGE },
];

const WHOLE_REPLY = {
  id: "chatcmpl-w",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "one", reasoning_content: "because" },
      finish_reason: "stop",
      logprobs: { content: [{ token: "one", logprob: -0.2, top_logprobs: [{ token: "one", logprob: -0.2 }] }] },
    },
    { index: 1, message: { role: "assistant", content: "two" }, finish_reason: "stop" },
  ],
  usage: USAGE,
};

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const piece of req) text += String(piece);
  return text;
}

async function startScriptedUpstream(): Promise<Upstream> {
  const bodies: Record<string, any>[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then(async (text) => {
      const body = JSON.parse(text) as Record<string, any>;
      bodies.push(body);
      if (!body.stream) {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(WHOLE_REPLY));
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      for (const event of TWO_CALL_STREAM) {
        res.write(`data: ${JSON.stringify(event)}\n\n`);
        await new Promise((r) => setTimeout(r, 5));
      }
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let openai: Upstream;
let compatible: Upstream;
let key = "";
let closeUpstreams: (() => Promise<void>) | undefined;
const model = uniqueModel("gem-conv");
const compatibleModel = uniqueModel("gem-conv-compat");

beforeAll(async () => {
  ({
    openai,
    compatible,
    key,
    close: closeUpstreams,
  } = await setUpConvertedChannels(startScriptedUpstream, model, compatibleModel));
}, 60_000);
afterAll(async () => {
  await closeUpstreams?.();
});

const generationConfig = {
  candidateCount: 2,
  topK: 12,
  responseLogprobs: true,
  logprobs: 1,
  thinkingConfig: { thinkingBudget: 30_000, includeThoughts: true },
};
const post = (name: string, method: string, body: unknown) =>
  fetch(`${baseUrl()}/v1beta/models/${name}:${method}${method.includes("?") ? "&" : "?"}key=${key}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The JSON objects of an SSE body's data lines, in order. */
function sseEvents(text: string): Record<string, any>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)) as Record<string, any>);
}

describe("Gemini generateContent → an OpenAI channel, through HTTP", () => {
  it("sends n and reasoning_effort; top_k to a compatible server only", async () => {
    const request = { contents: [{ role: "user", parts: [{ text: "hi" }] }], generationConfig };
    expect((await post(model, "generateContent", request)).status).toBe(200);
    const toOpenAi = openai.bodies.at(-1)!;
    expect(toOpenAi).toMatchObject({ n: 2, reasoning_effort: "high", logprobs: true, top_logprobs: 1 });
    expect(toOpenAi.top_k).toBeUndefined();
    expect((await post(compatibleModel, "generateContent", request)).status).toBe(200);
    expect(compatible.bodies.at(-1)).toMatchObject({ n: 2, reasoning_effort: "high", top_k: 12 });
  });

  it("answers one candidate per choice, thoughts as thought parts, cached and thought tokens in usageMetadata", async () => {
    const res = await post(model, "generateContent", {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig,
    });
    const reply = (await res.json()) as Record<string, any>;
    expect(reply.candidates.map((c: any) => c.index)).toEqual([0, 1]);
    expect(reply.candidates[0].content.parts).toEqual([{ text: "because", thought: true }, { text: "one" }]);
    expect(reply.candidates[0].logprobsResult).toEqual({
      chosenCandidates: [{ token: "one", logProbability: -0.2 }],
      topCandidates: [{ candidates: [{ token: "one", logProbability: -0.2 }] }],
    });
    expect(reply.usageMetadata).toMatchObject({
      promptTokenCount: 1200,
      cachedContentTokenCount: 1000,
      thoughtsTokenCount: 15,
      candidatesTokenCount: 25,
      totalTokenCount: 1240,
    });
  });

  it("streams the first function call before the last event, each call once, no empty text part", async () => {
    const res = await post(model, "streamGenerateContent?alt=sse", {
      contents: [{ role: "user", parts: [{ text: "weather and time?" }] }],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
    expect(res.status).toBe(200);
    const events = sseEvents(await res.text());
    const partsOf = (event: Record<string, any>) =>
      (event.candidates ?? []).flatMap((c: any) => c.content?.parts ?? []);
    const firstCallAt = events.findIndex((event) =>
      partsOf(event).some((p: any) => p.functionCall?.name === "weather"),
    );
    expect(firstCallAt).toBeGreaterThanOrEqual(0);
    expect(firstCallAt).toBeLessThan(events.length - 1);
    const calls = events.flatMap(partsOf).filter((p: any) => p.functionCall);
    expect(calls.map((p: any) => p.functionCall)).toEqual([
      { id: "call_a", name: "weather", args: { city: "Paris" } },
      { id: "call_b", name: "time", args: { zone: "CET" } },
    ]);
    expect(events.flatMap(partsOf).some((p: any) => p.text === "" && !p.functionCall)).toBe(false);
    expect(events.flatMap(partsOf)).toContainEqual({ text: "thinking it over", thought: true });
    expect(events.at(-1)!.usageMetadata).toMatchObject({ cachedContentTokenCount: 1000, thoughtsTokenCount: 15 });
  });
});
