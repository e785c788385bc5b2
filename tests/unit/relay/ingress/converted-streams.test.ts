import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createOpenAiAdapter } from "~/relay/adapters/openai/openai-adapter";
import type { AdapterContext } from "~/relay/adapters/types";
import { anthropicReplyCodec } from "~/relay/ingress/anthropic/reply-codec";
import { convertingAdapter } from "~/relay/ingress/converting-adapter";
import { geminiReplyCodec } from "~/relay/ingress/gemini/reply-codec";
import { responsesReplyCodec } from "~/relay/ingress/responses/reply-codec";
import type { Json } from "~/relay/ingress/json-shape";
import type { ReplyCodec } from "~/relay/ingress/types";
import type { Usage } from "~/relay/billing/pricing";
import type { ReplySink } from "~/relay/reply-sink";
import { endNativeStream, pipeStream } from "~/relay/stream/pipe-stream.server";

/** An OpenAI stream with text then a tool call in two argument pieces, and a usage chunk. */
const chunks = [
  { id: "chatcmpl-T1", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
  { id: "chatcmpl-T1", choices: [{ index: 0, delta: { content: "Checking " }, finish_reason: null }] },
  { id: "chatcmpl-T1", choices: [{ index: 0, delta: { content: "the weather." }, finish_reason: null }] },
  {
    id: "chatcmpl-T1",
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: "call_7", type: "function", function: { name: "get_weather", arguments: "" } }],
        },
        finish_reason: null,
      },
    ],
  },
  {
    id: "chatcmpl-T1",
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, finish_reason: null },
    ],
  },
  {
    id: "chatcmpl-T1",
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }, finish_reason: null },
    ],
  },
  { id: "chatcmpl-T1", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
  { id: "chatcmpl-T1", choices: [], usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 } },
];
const SSE = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;

const ctx = {
  channel: { id: 1, type: 1, base_url: "http://x" },
  key: "k",
  mode: "chat",
  path: "/v1/chat/completions",
  body: { messages: [{ role: "user", content: "What is the weather in Oslo today?" }] },
  upstreamModel: "up",
  requestModel: "client-model",
  stream: true,
} as unknown as AdapterContext;

/** Runs the SSE through pipeStream in 7-byte reads (every event split) and returns what the client got. */
async function convert(
  codec: ReplyCodec,
  sse = SSE,
  billed: Usage = { prompt_tokens: 40, completion_tokens: 9 },
): Promise<{ text: string; usage: unknown }> {
  const translator = convertingAdapter(createOpenAiAdapter("http://x"), codec).createStreamTranslator(ctx);
  const writes: string[] = [];
  const sink: ReplySink = {
    start: () => undefined,
    write: (c) => void writes.push(String(c)),
    end: (c) => void (c !== undefined && writes.push(String(c))),
    started: true,
    open: true,
    onClientGone: () => undefined,
  };
  const upstream = new PassThrough();
  const outcome = pipeStream(upstream as unknown as IncomingMessage, sink, translator, 5_000, () => undefined);
  for (let at = 0; at < sse.length; at += 7) {
    upstream.write(sse.slice(at, at + 7));
    await new Promise((r) => setImmediate(r));
  }
  upstream.end();
  const result = await outcome;
  endNativeStream(sink, result, billed, translator.close!);
  return { text: writes.join(""), usage: result.usage };
}

function events(text: string): { event?: string; data: Record<string, any> }[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.trim())
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      return { event, data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as Record<string, any> };
    });
}

describe("converted streams, read in fragments", () => {
  it("Anthropic: a text block then a tool_use block, each started and stopped, message_delta with the billed usage", async () => {
    const { text, usage } = await convert(anthropicReplyCodec);
    expect(usage).toEqual({ prompt_tokens: 40, completion_tokens: 9 });
    const got = events(text);
    for (const e of got) expect(e.data.type).toBe(e.event);
    expect(got.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(got[5]!.data).toEqual({
      type: "content_block_start",
      index: 1,
      content_block: { type: "tool_use", id: "call_7", name: "get_weather", input: {} },
    });
    expect(
      got
        .filter((e) => e.data.delta?.type === "input_json_delta")
        .map((e) => e.data.delta.partial_json)
        .join(""),
    ).toBe('{"city":"Oslo"}');
    expect(got[9]!.data).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { input_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 9 },
    });
  });

  it("Anthropic: message_start states the prompt as counted, message_delta the billed input with the cache's part apart, reasoning as a thinking block", async () => {
    const reasoning = [
      {
        id: "chatcmpl-R",
        choices: [{ index: 0, delta: { role: "assistant", reasoning_content: "Think" }, finish_reason: null }],
      },
      { id: "chatcmpl-R", choices: [{ index: 0, delta: { reasoning_content: "ing." }, finish_reason: null }] },
      { id: "chatcmpl-R", choices: [{ index: 0, delta: { content: "Done." }, finish_reason: "stop" }] },
    ];
    const sse = `${reasoning.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
    const got = events(
      (
        await convert(anthropicReplyCodec, sse, {
          prompt_tokens: 4000,
          completion_tokens: 30,
          cached_tokens: 3000,
          reasoning_tokens: 20,
        })
      ).text,
    );
    expect(got[0]!.data.message.usage.input_tokens).toBeGreaterThan(0);
    expect(got[1]!.data).toEqual({
      type: "content_block_start",
      index: 0,
      content_block: { type: "thinking", thinking: "", signature: "" },
    });
    expect(
      got
        .filter((e) => e.data.delta?.type === "thinking_delta")
        .map((e) => e.data.delta.thinking)
        .join(""),
    ).toBe("Thinking.");
    expect(got.find((e) => e.event === "message_delta")!.data.usage).toEqual({
      input_tokens: 1000,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 3000,
      output_tokens: 30,
    });
  });

  it("Gemini: text chunks as they come; the function call whole as soon as it is complete; the last chunk finishReason and usageMetadata, no empty text", async () => {
    const got = events((await convert(geminiReplyCodec({ thoughts: false }))).text);
    expect(got.every((e) => e.event === undefined)).toBe(true);
    expect(
      got
        .slice(0, -2)
        .map((e) => e.data.candidates[0].content.parts[0].text)
        .join(""),
    ).toBe("Checking the weather.");
    expect(got.at(-2)!.data.candidates).toEqual([
      {
        content: {
          role: "model",
          parts: [{ functionCall: { id: "call_7", name: "get_weather", args: { city: "Oslo" } } }],
        },
        index: 0,
      },
    ]);
    expect(got.at(-1)!.data).toMatchObject({
      candidates: [{ finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 9, totalTokenCount: 49 },
      modelVersion: "client-model",
    });
    expect(got.at(-1)!.data.candidates[0].content).toBeUndefined();
  });

  it("Gemini: each of two streamed tool calls leaves when the next starts; n choices are candidates; thoughts only when asked; cached and thought tokens reported", async () => {
    const two = [
      {
        id: "c",
        choices: [
          { index: 0, delta: { reasoning_content: "Hmm." }, finish_reason: null },
          { index: 1, delta: { content: "B" }, finish_reason: null },
        ],
      },
      {
        id: "c",
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: "a1", function: { name: "f", arguments: '{"x":' } }] },
            finish_reason: null,
          },
        ],
      },
      {
        id: "c",
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "1}" } }] }, finish_reason: null },
        ],
      },
      {
        id: "c",
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 1, id: "a2", function: { name: "g", arguments: "{}" } }] },
            finish_reason: null,
          },
        ],
      },
      { id: "c", choices: [{ index: 0, delta: { content: "A" }, finish_reason: null }] },
      {
        id: "c",
        choices: [
          { index: 0, delta: {}, finish_reason: "tool_calls" },
          { index: 1, delta: {}, finish_reason: "length" },
        ],
      },
    ];
    const sse = `${two.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
    const billed = { prompt_tokens: 100, completion_tokens: 50, cached_tokens: 60, reasoning_tokens: 10 };
    const got = events((await convert(geminiReplyCodec({ thoughts: true }), sse, billed)).text).map((e) => e.data);
    const firstCall = got.findIndex((d) =>
      d.candidates?.[0]?.content?.parts?.some((p: Json) => (p.functionCall as Json | undefined)?.name === "f"),
    );
    const secondCall = got.findIndex((d) =>
      d.candidates?.[0]?.content?.parts?.some((p: Json) => (p.functionCall as Json | undefined)?.name === "g"),
    );
    expect(firstCall).toBeGreaterThan(-1);
    expect(secondCall).toBeGreaterThan(firstCall);
    expect(got[firstCall]!.candidates[0].content.parts).toEqual([
      { functionCall: { id: "a1", name: "f", args: { x: 1 } } },
    ]);
    expect(secondCall).toBeLessThan(got.length - 1);
    expect(got[0]!.candidates).toEqual([
      { content: { role: "model", parts: [{ text: "Hmm.", thought: true }] }, index: 0 },
    ]);
    expect(got.some((d) => d.candidates?.[0]?.index === 1 && d.candidates[0].content.parts[0].text === "B")).toBe(true);
    expect(got.at(-1)!.candidates).toEqual([
      { finishReason: "STOP", index: 0 },
      { finishReason: "MAX_TOKENS", index: 1 },
    ]);
    expect(got.at(-1)!.usageMetadata).toEqual({
      promptTokenCount: 100,
      candidatesTokenCount: 40,
      totalTokenCount: 150,
      cachedContentTokenCount: 60,
      thoughtsTokenCount: 10,
    });
    const hidden = events((await convert(geminiReplyCodec({ thoughts: false }), sse, billed)).text).map((e) => e.data);
    expect(JSON.stringify(hidden)).not.toContain("Hmm.");
  });

  it("Responses: numbered events, a message item and a function_call item, response.completed with both and the usage", async () => {
    const got = events((await convert(responsesReplyCodec)).text);
    expect(got.map((e) => e.data.sequence_number)).toEqual(got.map((_e, i) => i));
    expect(got.map((e) => e.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const completed = got.at(-1)!.data.response;
    expect(completed.output).toEqual([
      {
        type: "message",
        id: expect.any(String),
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "Checking the weather.", annotations: [] }],
      },
      {
        type: "function_call",
        id: "fc_call_7",
        call_id: "call_7",
        name: "get_weather",
        arguments: '{"city":"Oslo"}',
        status: "completed",
      },
    ]);
    expect(completed.usage).toMatchObject({ input_tokens: 40, output_tokens: 9, total_tokens: 49 });
  });

  it("an upstream error mid-stream ends each surface in its own error shape", async () => {
    const close = (codec: ReplyCodec) => {
      const writer = codec.createStreamWriter("m", 0);
      writer.chunk(chunks[1]!);
      return events(
        writer.close(
          { prompt_tokens: 0, completion_tokens: 0 },
          { message: "boom", type: "upstream_error", code: null },
        ),
      ).at(-1)!;
    };
    expect(close(anthropicReplyCodec)).toEqual({
      event: "error",
      data: { type: "error", error: { type: "api_error", message: "boom" } },
    });
    expect(close(geminiReplyCodec({ thoughts: false })).data).toEqual({
      error: { code: 500, message: "boom", status: "INTERNAL" },
    });
    expect(close(responsesReplyCodec)).toMatchObject({ event: "error", data: { type: "error", message: "boom" } });
  });
});
