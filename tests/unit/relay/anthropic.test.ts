import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toAnthropicRequest } from "~/relay/adapters/anthropic/convert-request";
import { toOpenAiResponse } from "~/relay/adapters/anthropic/convert-response";
import { createAnthropicStreamTranslator } from "~/relay/adapters/anthropic/convert-stream";
import { parseAnthropicError } from "~/relay/adapters/anthropic/errors";
import { mapFinishReason } from "~/relay/adapters/anthropic/map-finish-reason";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/upstream/anthropic/${name}`, import.meta.url), "utf8");
const sseEvents = (text: string) =>
  text
    .split("\n\n")
    .filter((e) => e.trim())
    .map((e) => ({ event: /^event: (.*)$/m.exec(e)?.[1], data: /^data: (.*)$/m.exec(e)?.[1] ?? "" }));

describe("OpenAI → Anthropic request", () => {
  it("moves system prompts out, converts images, tools, tool calls and tool results, merges turns", () => {
    const body = toAnthropicRequest(
      {
        model: "claude-x",
        max_tokens: 200,
        temperature: 0.3,
        stop: "END",
        user: "u-1",
        messages: [
          { role: "system", content: "Answer briefly." },
          { role: "developer", content: "Use metric units." },
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            ],
          },
          { role: "user", content: "And the weather in Oslo?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: "4°C, rain" },
        ],
        tools: [
          {
            type: "function",
            function: {
              name: "get_weather",
              description: "Weather",
              parameters: { type: "object", properties: { city: { type: "string" } } },
            },
          },
        ],
        tool_choice: "required",
      },
      "claude-3-5-sonnet-20241022",
    );
    expect(body).toEqual({
      model: "claude-3-5-sonnet-20241022",
      max_tokens: 200,
      system: "Answer briefly.\nUse metric units.",
      temperature: 0.3,
      stop_sequences: ["END"],
      metadata: { user_id: "u-1" },
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            { type: "text", text: "And the weather in Oslo?" },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Oslo" } }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "4°C, rain" }] },
      ],
      tools: [
        {
          name: "get_weather",
          description: "Weather",
          input_schema: { type: "object", properties: { city: { type: "string" } } },
        },
      ],
      tool_choice: { type: "any" },
    });
  });

  it("always sends max_tokens (Anthropic requires it) and URL images as url sources", () => {
    const body = toAnthropicRequest(
      { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png" } }] }] },
      "m",
    );
    expect(body.max_tokens).toBe(4096);
    expect(body).not.toHaveProperty("system");
    expect((body.messages as any)[0].content[0]).toEqual({
      type: "image",
      source: { type: "url", url: "https://x.test/a.png" },
    });
  });

  it("maps tool_choice, parallel_tool_calls, stop arrays, top_p, stream and max_completion_tokens", () => {
    const tools = [{ type: "function", function: { name: "f" } }];
    const base = { messages: [{ role: "user", content: "hi" }], tools };
    const choice = (tool_choice: unknown, extra: Record<string, unknown> = {}) =>
      toAnthropicRequest({ ...base, tool_choice, ...extra }, "m").tool_choice;
    expect(choice("auto")).toEqual({ type: "auto" });
    expect(choice("none")).toEqual({ type: "none" });
    expect(choice({ type: "function", function: { name: "f" } })).toEqual({ type: "tool", name: "f" });
    expect(choice(undefined, { parallel_tool_calls: false })).toEqual({
      type: "auto",
      disable_parallel_tool_use: true,
    });
    expect(
      toAnthropicRequest(
        { ...base, stop: ["a", "b"], top_p: 0.9, stream: true, max_completion_tokens: 77, max_tokens: 5 },
        "m",
      ),
    ).toEqual({
      model: "m",
      max_tokens: 77,
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      top_p: 0.9,
      stop_sequences: ["a", "b"],
      stream: true,
      tools: [{ name: "f", input_schema: { type: "object", properties: {} } }],
    });
  });
});

describe("OpenAI reasoning_effort → Anthropic extended thinking", () => {
  const ask = (extra: Record<string, unknown>) =>
    toAnthropicRequest({ messages: [{ role: "user", content: "hi" }], ...extra }, "m");

  it("asks for a thinking budget by effort, fitted inside the client's max_tokens, without the sampling fields thinking refuses", () => {
    expect(
      ask({ reasoning_effort: "medium", max_tokens: 20_000, temperature: 0.3, top_k: 5, top_p: 0.5 }),
    ).toMatchObject({ max_tokens: 20_000, thinking: { type: "enabled", budget_tokens: 8_192 } });
    const body = ask({ reasoning_effort: "medium", max_tokens: 20_000, temperature: 0.3, top_k: 5, top_p: 0.5 });
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("top_k");
    expect(body).not.toHaveProperty("top_p");
    expect(ask({ reasoning_effort: "high", max_tokens: 6_000, top_p: 0.97 })).toMatchObject({
      max_tokens: 6_000,
      top_p: 0.97,
      thinking: { budget_tokens: 5_999 },
    });
  });

  it("asks for none when the effort is minimal, the limit is below the smallest budget, or a tool is forced", () => {
    expect(ask({ reasoning_effort: "minimal", max_tokens: 8_000 })).not.toHaveProperty("thinking");
    expect(ask({ reasoning_effort: "low", max_tokens: 1_000, temperature: 0.2 })).toMatchObject({ temperature: 0.2 });
    expect(ask({ reasoning_effort: "low", max_tokens: 1_000 })).not.toHaveProperty("thinking");
    expect(
      ask({
        reasoning_effort: "high",
        max_tokens: 30_000,
        tools: [{ type: "function", function: { name: "f" } }],
        tool_choice: "required",
      }),
    ).not.toHaveProperty("thinking");
  });
});

describe("Anthropic → OpenAI response", () => {
  it("sets content null when the reply only calls tools", () => {
    const { body } = toOpenAiResponse(
      {
        id: "msg_2",
        content: [{ type: "tool_use", id: "toolu_9", name: "f", input: {} }],
        stop_reason: "tool_use",
        usage: { input_tokens: 3, output_tokens: 2, cache_creation_input_tokens: 4, cache_read_input_tokens: null },
      },
      "claude-x",
    );
    expect(body.choices[0]!.message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "toolu_9", type: "function", function: { name: "f", arguments: "{}" } }],
    });
    expect(body.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
  });

  it("converts text replies with usage", () => {
    const { body, usage } = toOpenAiResponse(JSON.parse(fixture("message-text.json")), "claude-x");
    expect(body.choices[0]).toMatchObject({
      message: { role: "assistant", content: "It is 4°C with rain in Oslo." },
      finish_reason: "stop",
    });
    expect(body.model).toBe("claude-x");
    expect(usage).toEqual({ prompt_tokens: 412, completion_tokens: 14 });
    expect(body.usage).toMatchObject({ prompt_tokens: 412, completion_tokens: 14, total_tokens: 426 });
  });

  it("converts tool use, counting cached prompt tokens", () => {
    const { body, usage } = toOpenAiResponse(JSON.parse(fixture("message-tool-use.json")), "claude-x");
    expect(body.choices[0]!.finish_reason).toBe("tool_calls");
    expect(body.choices[0]!.message.tool_calls).toEqual([
      { id: "toolu_01A", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
    ]);
    expect(usage).toEqual({ prompt_tokens: 400, completion_tokens: 41, cached_tokens: 20 });
    expect(body.usage).toMatchObject({ prompt_tokens: 400, completion_tokens: 41, total_tokens: 441 });
    expect(body.choices[0]!.message.content).toBe("Checking.");
    expect(body.id).toBe("chatcmpl-msg_01Tc");
    expect(body.object).toBe("chat.completion");
  });

  it("maps every stop reason to an OpenAI finish reason", () => {
    expect(mapFinishReason(null)).toBeNull();
    expect(
      [
        "end_turn",
        "stop_sequence",
        "pause_turn",
        "max_tokens",
        "model_context_window_exceeded",
        "tool_use",
        "refusal",
      ].map(mapFinishReason),
    ).toEqual(["stop", "stop", "stop", "length", "length", "tool_calls", "content_filter"]);
  });
});

describe("Anthropic stream → OpenAI chunks", () => {
  it("translates a text stream event by event, with usage when asked", () => {
    const translator = createAnthropicStreamTranslator("claude-x", true);
    const chunks = sseEvents(fixture("stream-text.sse")).flatMap((e) =>
      translator.push(e.event, e.data).chunks.map((c) => JSON.parse(c)),
    );
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Hello there.");
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish.choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 14, completion_tokens: 5, total_tokens: 19 },
    });
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set(["chatcmpl-msg_01Xy"]));
    expect(chunks.map((c) => c.object)).toEqual(Array(chunks.length).fill("chat.completion.chunk"));
    expect(chunks.map((c) => c.choices[0]?.delta)).toEqual([
      { role: "assistant", content: "" },
      { content: "Hello" },
      { content: " there." },
      {},
      undefined,
    ]);
    expect(translator.usage()).toEqual({ prompt_tokens: 14, completion_tokens: 5, total_tokens: 19 });
    expect(translator.finished()).toBe(true);
  });

  it("numbers tool calls by tool block and streams their arguments", () => {
    const translator = createAnthropicStreamTranslator("claude-x", false);
    expect(translator.usage()).toBeUndefined();
    expect(translator.finished()).toBe(false);
    const steps = sseEvents(fixture("stream-tool-use.sse")).map((e) => translator.push(e.event, e.data));
    const chunks = steps.flatMap((s) => s.chunks.map((c) => JSON.parse(c)));
    const calls = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: "toolu_01A",
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    expect(
      calls
        .slice(1)
        .map((c: any) => c.function.arguments)
        .join(""),
    ).toBe('{"city": "Oslo"}');
    expect(chunks.some((c) => c.usage)).toBe(false);
    expect(steps.find((s) => s.usage)?.usage).toEqual({ prompt_tokens: 380, completion_tokens: 41 });
    expect(chunks.at(-1).choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.map((c) => c.choices[0].delta)).toEqual([
      { role: "assistant", content: "" },
      { content: "Checking." },
      {
        tool_calls: [{ index: 0, id: "toolu_01A", type: "function", function: { name: "get_weather", arguments: "" } }],
      },
      { tool_calls: [{ index: 0, function: { arguments: "" } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city": "Os' } }] },
      { tool_calls: [{ index: 0, function: { arguments: 'lo"}' } }] },
      {},
    ]);
    expect(translator.finished()).toBe(true);
  });

  it("counts tool calls from 0 across several tool blocks", () => {
    const t = createAnthropicStreamTranslator("claude-x");
    t.push(
      "message_start",
      '{"type":"message_start","message":{"id":"msg_3","usage":{"input_tokens":1,"output_tokens":1}}}',
    );
    const first = t.push(
      "content_block_start",
      '{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"a","name":"f","input":{}}}',
    );
    const second = t.push(
      "content_block_start",
      '{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"b","name":"g","input":{}}}',
    );
    const delta = t.push(
      "content_block_delta",
      '{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
    );
    expect([first, second, delta].map((s) => JSON.parse(s.chunks[0]!).choices[0].delta.tool_calls[0].index)).toEqual([
      0, 1, 1,
    ]);
    expect(t.push("ping", '{"type":"ping"}').chunks).toEqual([]);
  });

  it("turns an error event into an error", () => {
    const translator = createAnthropicStreamTranslator("claude-x", false);
    expect(
      translator.push("error", '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}').error,
    ).toMatchObject({ message: "Overloaded", type: "overloaded_error" });
  });
});

describe("Anthropic errors", () => {
  it("reads the error body, or falls back to the status", () => {
    expect(
      parseAnthropicError(
        429,
        '{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"},"request_id":"req_1"}',
      ),
    ).toEqual({
      message: "Slow down",
      type: "rate_limit_error",
      code: "rate_limit_error",
    });
    expect(parseAnthropicError(413, "<html>Request Entity Too Large</html>")).toEqual({
      message: "bad response status code 413",
      type: "upstream_error",
      code: "bad_response_status_code",
    });
  });
});
