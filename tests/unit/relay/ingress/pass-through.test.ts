import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  STREAM_IDLE_TIMEOUT,
  STREAM_INTERRUPTED,
  type AdapterContext,
  type StreamTranslator,
} from "~/relay/adapters/types";
import { anthropicPassThrough } from "~/relay/ingress/anthropic/pass-through";
import { geminiPassThrough } from "~/relay/ingress/gemini/pass-through";
import { responsesPassThrough } from "~/relay/ingress/responses/pass-through";

const fixture = (path: string) => readFileSync(new URL(`../../../fixtures/upstream/${path}`, import.meta.url), "utf8");
const ctx = (type: number, stream = false) =>
  ({
    channel: { id: 3, type, base_url: "http://up.example/", openai_organization: "" },
    key: "chan-key",
    mode: "chat",
    path: "/v1/chat/completions",
    body: {},
    upstreamModel: "mapped",
    requestModel: "asked",
    stream,
  }) as unknown as AdapterContext;

/** Feeds an SSE fixture's events to a translator; returns what it forwarded and what billing saw. */
function run(translator: StreamTranslator, sse: string) {
  let forwarded = "";
  let usage: unknown;
  let done = false;
  for (const frame of sse.split(/\n\n/).filter((f) => f.trim())) {
    const event = /^event: (.*)$/m.exec(frame)?.[1];
    const data = /^data: (.*)$/m.exec(frame)![1]!;
    const step = translator.push(event, data);
    forwarded += step.chunks.join("");
    if (step.usage) usage = step.usage;
    if (step.done) done = true;
  }
  return { forwarded, usage, done };
}

describe("pass-through adapters", () => {
  it("Anthropic: the client's body with the mapped model, the client's version and beta headers; events forwarded as they came", async () => {
    const adapter = anthropicPassThrough(
      { model: "asked", max_tokens: 5, messages: [] },
      Buffer.from(`{"model":"asked", "max_tokens":5,"messages":[]}`),
      { version: "2023-06-01", beta: "tools-2024" },
    );
    const built = await adapter.buildRequest(ctx(14, true));
    expect(built.url).toBe("http://up.example/v1/messages");
    expect(built.headers).toMatchObject({
      "x-api-key": "chan-key",
      "anthropic-version": "2023-06-01",
      "anthropic-beta": "tools-2024",
    });
    expect(String(built.body)).toBe(`{"model":"mapped", "max_tokens":5,"messages":[]}`);
    const sse = fixture("anthropic/stream-text.sse");
    const translator = adapter.createStreamTranslator(ctx(14, true));
    const { forwarded, usage, done } = run(translator, sse);
    // The closing message_delta and message_stop wait for the bill; billed as reported, they are the upstream's bytes.
    expect(forwarded + translator.close!({ prompt_tokens: 14, completion_tokens: 5 })).toBe(
      sse.replace(/\n*$/, "\n\n"),
    );
    expect(forwarded).not.toContain("message_delta");
    expect(usage).toEqual({ prompt_tokens: 14, completion_tokens: 5 });
    expect(done).toBe(true);
    const raw = Buffer.from(fixture("anthropic/message-text.json"));
    const reply = adapter.convertResponse(ctx(14), raw);
    expect(reply.body).toBe(raw);
    expect(reply.usage).toEqual({ prompt_tokens: 412, completion_tokens: 14 });
  });

  it("Anthropic: an upstream error event is forwarded once, not framed again at the end", () => {
    const translator = anthropicPassThrough({}, Buffer.from("{}"), {}).createStreamTranslator(ctx(14, true));
    const step = translator.push(
      "error",
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
    expect(step.error?.message).toBe("Overloaded");
    expect(step.chunks.join("")).toContain("event: error");
    expect(translator.close!({ prompt_tokens: 0, completion_tokens: 0 }, step.error)).toBe("");
    const idle = anthropicPassThrough({}, Buffer.from("{}"), {}).createStreamTranslator(ctx(14, true));
    expect(
      idle.close!(
        { prompt_tokens: 0, completion_tokens: 0 },
        { message: "idle", type: "upstream_error", code: STREAM_IDLE_TIMEOUT },
      ),
    ).toContain('"type":"timeout_error"');
  });

  it("Anthropic: the reply is whole only at message_stop; one broken off before it ends in an api_error event", () => {
    const translator = anthropicPassThrough({}, Buffer.from("{}"), {}).createStreamTranslator(ctx(14, true));
    const frames = fixture("anthropic/stream-text.sse")
      .split("\n\n")
      .filter((f) => f.trim());
    run(translator, frames.slice(0, -1).join("\n\n")); // message_delta with its stop_reason, no message_stop
    expect(translator.finished!()).toBe(false);
    expect(
      translator.close!(
        { prompt_tokens: 14, completion_tokens: 5 },
        { message: "上游连接在回复中途断开", type: "upstream_error", code: STREAM_INTERRUPTED },
      ),
    ).toBe(
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}\n\n' +
        'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"上游连接在回复中途断开"}}\n\n',
    );
    run(translator, frames.at(-1)!);
    expect(translator.finished!()).toBe(true);
  });

  it("Gemini: the mapped model's URL and method, the key in x-goog-api-key, the last usageMetadata billed", async () => {
    const adapter = geminiPassThrough(Buffer.from(`{"contents": []}`));
    const built = await adapter.buildRequest(ctx(24, true));
    expect(built.url).toBe("http://up.example/v1beta/models/mapped:streamGenerateContent?alt=sse");
    expect(built.headers["x-goog-api-key"]).toBe("chan-key");
    expect(built.headers.Authorization).toBeUndefined();
    expect(String(built.body)).toBe(`{"contents": []}`);
    expect((await adapter.buildRequest(ctx(24))).url).toBe("http://up.example/v1beta/models/mapped:generateContent");
    const { usage } = run(adapter.createStreamTranslator(ctx(24, true)), fixture("gemini-native/stream.sse"));
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 12 });
  });

  it("Gemini: whole once a chunk carries a finishReason; before it the running usageMetadata is not billed (the text is counted)", () => {
    const translator = geminiPassThrough(Buffer.from(`{"contents": []}`)).createStreamTranslator(ctx(24, true));
    const frames = fixture("gemini-native/stream.sse")
      .split("\n\n")
      .filter((f) => f.trim());
    const early = run(translator, frames.slice(0, 2).join("\n\n"));
    expect(early.usage).toBeUndefined(); // the chunks carry promptTokenCount only
    expect(translator.finished!()).toBe(false);
    expect(
      translator.close!(
        { prompt_tokens: 7, completion_tokens: 4 },
        { message: "cut", type: "upstream_error", code: STREAM_INTERRUPTED },
      ),
    ).toBe('data: {"error":{"code":500,"message":"cut","status":"INTERNAL"}}\n\n');
    expect(run(translator, frames[2]!).usage).toEqual({ prompt_tokens: 7, completion_tokens: 12 });
    expect(translator.finished!()).toBe(true);
    const blocked = geminiPassThrough(Buffer.from(`{"contents": []}`)).createStreamTranslator(ctx(24, true));
    blocked.push(
      undefined,
      '{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}',
    );
    expect(blocked.finished!()).toBe(true);
  });

  it("Responses: {base}/v1/responses with Bearer; usage from the terminal event, which ends the stream", async () => {
    const adapter = responsesPassThrough(
      { model: "asked", input: "hi" },
      Buffer.from(`{"model":"asked","input":"hi"}`),
      "https://api.openai.com",
    );
    const built = await adapter.buildRequest(ctx(1, true));
    expect(built.url).toBe("http://up.example/v1/responses");
    expect(built.headers.Authorization).toBe("Bearer chan-key");
    expect(String(built.body)).toBe(`{"model":"mapped","input":"hi"}`);
    const { usage, done, forwarded } = run(
      adapter.createStreamTranslator(ctx(1, true)),
      fixture("openai/responses-stream.sse"),
    );
    expect(usage).toEqual({ prompt_tokens: 8, completion_tokens: 3 });
    expect(done).toBe(true);
    expect(forwarded.match(/^event: /gm)).toHaveLength(10);
    expect(adapter.convertResponse(ctx(1), Buffer.from(fixture("openai/responses.json"))).usage).toEqual({
      prompt_tokens: 20,
      completion_tokens: 12,
    });
  });

  it("Responses: whole only at a terminal event; one broken off before it ends in an error event numbered after the last", () => {
    const translator = responsesPassThrough(
      { model: "asked", input: "hi" },
      Buffer.from(`{"model":"asked","input":"hi"}`),
      "https://api.openai.com",
    ).createStreamTranslator(ctx(1, true));
    const frames = fixture("openai/responses-stream.sse")
      .split("\n\n")
      .filter((f) => f.trim());
    run(translator, frames.slice(0, 5).join("\n\n")); // sequence numbers 0-4
    expect(translator.finished!()).toBe(false);
    expect(
      JSON.parse(
        translator.close!(
          { prompt_tokens: 8, completion_tokens: 1 },
          { message: "cut", type: "upstream_error", code: STREAM_INTERRUPTED },
        ).split("data: ")[1]!,
      ),
    ).toEqual({
      type: "error",
      code: STREAM_INTERRUPTED,
      message: "cut",
      param: null,
      sequence_number: 5,
    });
    run(translator, frames.slice(5).join("\n\n"));
    expect(translator.finished!()).toBe(true);
  });
});
