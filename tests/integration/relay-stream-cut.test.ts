import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startCutStreamMock, type CutStreamMock } from "../mocks/cut-stream-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * A stream whose upstream breaks off mid-reply (connection reset, body ended before the
 * protocol's last event, upstream gone quiet) must not look finished: each surface ends it with
 * its own error event instead of its end (OpenAI `[DONE]`, Anthropic `message_stop`, Responses
 * `response.completed`), the official SDKs raise on it, and the log row says the reply was cut
 * while billing what reached the client.
 */
let root: ApiSession;
let upstream: CutStreamMock;
const gptModel = uniqueModel("cut-gpt");
const claudeModel = uniqueModel("cut-claude");
const geminiModel = uniqueModel("cut-gemini");
const chatOnlyModel = uniqueModel("cut-chatonly");

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startCutStreamMock();
  const models = [gptModel, claudeModel, geminiModel, chatOnlyModel];
  // Ratio 1, completion ratio 1: a call's quota is its prompt plus its completion tokens.
  await mergeOption(root, "ModelRatio", Object.fromEntries(models.map((m) => [m, 1])));
  await mergeOption(root, "CompletionRatio", Object.fromEntries(models.map((m) => [m, 1])));
  await createChannel(root, { type: 1, base_url: upstream.url, models: gptModel });
  await createChannel(root, { type: 14, key: "sk-ant", base_url: upstream.url, models: claudeModel });
  await createChannel(root, { type: 24, key: "g-key", base_url: upstream.url, models: geminiModel });
  // Moonshot (25) speaks only chat completions: a Responses client is converted for it.
  await createChannel(root, { type: 25, base_url: upstream.url, models: chatOnlyModel });
}, 60_000);

afterAll(async () => {
  await upstream?.close();
});

beforeEach(() => {
  upstream.cut = undefined;
});

type LogRow = { quota: number; prompt_tokens: number; completion_tokens: number; is_stream: boolean; other: string };

/** The payer's one usage row, its `other` parsed; its quota is what the payer was charged. */
async function usageRow(user: ApiSession): Promise<{ row: LogRow; other: Record<string, unknown> }> {
  const items = (await user.call("GET", "/api/log/self?type=2")).json.data.items as LogRow[];
  expect(items).toHaveLength(1);
  const row = items[0]!;
  expect(row.is_stream).toBe(true);
  expect(row.quota).toBe(row.prompt_tokens + row.completion_tokens);
  expect((await quotaOf(user)).used_quota).toBe(row.quota);
  return { row, other: JSON.parse(row.other) as Record<string, unknown> };
}

function post(path: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** A stream's frames: the event name (if any) and the data line. */
function frames(text: string): { event?: string; data: string }[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.trim())
    .map((frame) => ({ event: /^event: (.*)$/m.exec(frame)?.[1], data: /^data: (.*)$/m.exec(frame)?.[1] ?? "" }));
}

const chatBody = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  stream: true,
  messages: [{ role: "user", content: "say hello to the gateway" }],
  ...extra,
});
const openAiChat = (key: string, body: unknown) =>
  post("/v1/chat/completions", { Authorization: `Bearer ${key}` }, body);
const deltaText = (data: string) => {
  const chunk = JSON.parse(data) as { choices: { delta?: { content?: string }; text?: string }[] };
  return chunk.choices[0]?.delta?.content ?? chunk.choices[0]?.text ?? "";
};

/** The OpenAI error event a cut stream ends with. */
const INTERRUPTED = {
  error: { message: expect.stringContaining("上游"), type: "upstream_error", code: "stream_interrupted", param: null },
};

describe("the OpenAI surface", () => {
  it("a clean stream ends exactly as before: every upstream chunk but the usage-only one, then [DONE]; nothing logged as cut", async () => {
    const { user, key } = await userWithToken(100_000);
    const res = await openAiChat(key, chatBody(gptModel));
    expect(res.status).toBe(200);
    const recorded = readFileSync(new URL("../fixtures/upstream/openai/chat-stream.sse", import.meta.url), "utf8");
    const expected = recorded
      .split("\n\n")
      .filter((e) => e.trim() && !e.includes('"choices":[]'))
      .map((e) => `${e}\n\n`)
      .join("");
    expect(await res.text()).toBe(expected);
    expect(expected.endsWith("data: [DONE]\n\n")).toBe(true);
    const { row, other } = await usageRow(user);
    expect([row.prompt_tokens, row.completion_tokens]).toEqual([9, 3]);
    expect(other.stream_cut).toBeUndefined();
  });

  it("a clean stream with include_usage passes the upstream's bytes through unchanged", async () => {
    const { key } = await userWithToken(100_000);
    const res = await openAiChat(key, chatBody(gptModel, { stream_options: { include_usage: true } }));
    expect(await res.text()).toBe(
      readFileSync(new URL("../fixtures/upstream/openai/chat-stream.sse", import.meta.url), "utf8"),
    );
  });

  it("a connection reset mid-reply ends in an OpenAI error event and no [DONE]; billed for what came and logged as cut", async () => {
    upstream.cut = { after: 2, how: "reset" }; // the role chunk and "Hi"
    const { user, key } = await userWithToken(100_000);
    const res = await openAiChat(key, chatBody(gptModel));
    expect(res.status).toBe(200);
    const text = await res.text();
    const data = frames(text).map((f) => f.data);
    expect(data).not.toContain("[DONE]");
    expect(text).toMatch(
      /data: \{"error":\{"message":"[^"]+","type":"upstream_error","code":"stream_interrupted","param":null\}\}\n\n$/,
    );
    expect(JSON.parse(data.at(-1)!)).toEqual(INTERRUPTED);
    expect(data.slice(0, -1).map(deltaText)).toEqual(["", "Hi"]);
    const { row, other } = await usageRow(user);
    expect(other.stream_cut).toBe("connection_lost");
    expect(row.completion_tokens).toBe(1); // "Hi", counted: the upstream's usage never came
    expect(row.prompt_tokens).toBeGreaterThan(0);
  });

  it("a body that ends before [DONE] and before any finish_reason is cut too (ended_early)", async () => {
    upstream.cut = { after: 3, how: "end" };
    const { user, key } = await userWithToken(100_000);
    const text = await (await openAiChat(key, chatBody(gptModel))).text();
    const data = frames(text).map((f) => f.data);
    expect(data).not.toContain("[DONE]");
    expect(JSON.parse(data.at(-1)!)).toEqual(INTERRUPTED);
    expect(data.slice(0, -1).map(deltaText).join("")).toBe("Hi there.");
    const { row, other } = await usageRow(user);
    expect(other.stream_cut).toBe("ended_early");
    expect(row.completion_tokens).toBe(3);
  });

  it("with include_usage, the usage chunk of what was billed comes before the error event", async () => {
    upstream.cut = { after: 3, how: "end" };
    const { user, key } = await userWithToken(100_000);
    const text = await (await openAiChat(key, chatBody(gptModel, { stream_options: { include_usage: true } }))).text();
    const data = frames(text).map((f) => f.data);
    expect(data).not.toContain("[DONE]");
    expect(JSON.parse(data.at(-1)!)).toEqual(INTERRUPTED);
    const { row } = await usageRow(user);
    expect(JSON.parse(data.at(-2)!)).toMatchObject({
      id: "chatcmpl-Q7",
      object: "chat.completion.chunk",
      model: gptModel,
      choices: [],
      usage: { prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens, total_tokens: row.quota },
    });
  });

  it("the openai SDK raises on the cut stream, after handing over the text that came", async () => {
    upstream.cut = { after: 3, how: "reset" };
    const { client } = await userWithToken(100_000);
    const stream = await client.chat.completions.create({
      model: gptModel,
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    let text = "";
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("stream_interrupted");
    expect(text).toBe("Hi there.");
  });

  it("a legacy /v1/completions stream cut mid-reply ends in the error event, not [DONE]", async () => {
    upstream.cut = { after: 2, how: "reset" };
    const { user, key } = await userWithToken(100_000);
    const res = await post(
      "/v1/completions",
      { Authorization: `Bearer ${key}` },
      { model: gptModel, stream: true, prompt: "Tell a story" },
    );
    const data = frames(await res.text()).map((f) => f.data);
    expect(data).not.toContain("[DONE]");
    expect(JSON.parse(data.at(-1)!)).toEqual(INTERRUPTED);
    expect(data.slice(0, -1).map(deltaText).join("")).toBe("Once upon");
    expect((await usageRow(user)).other.stream_cut).toBe("connection_lost");
  });

  it("a Claude channel's stream that ends before its stop reaches an OpenAI client as cut", async () => {
    upstream.cut = { after: 5, how: "end" }; // through " there.", no message_delta, no message_stop
    const { user, key } = await userWithToken(100_000);
    const data = frames(await (await openAiChat(key, chatBody(claudeModel))).text()).map((f) => f.data);
    expect(data).not.toContain("[DONE]");
    expect(JSON.parse(data.at(-1)!)).toEqual(INTERRUPTED);
    expect(data.slice(0, -1).map(deltaText).join("")).toBe("Hello there.");
    expect((await usageRow(user)).other.stream_cut).toBe("ended_early");
  });

  it("a Gemini channel's stream that ends before any finishReason reaches an OpenAI client as cut", async () => {
    upstream.cut = { after: 2, how: "end" };
    const { user, key } = await userWithToken(100_000);
    const data = frames(await (await openAiChat(key, chatBody(geminiModel))).text()).map((f) => f.data);
    expect(data).not.toContain("[DONE]");
    expect(JSON.parse(data.at(-1)!)).toEqual(INTERRUPTED);
    expect(data.slice(0, -1).map(deltaText).join("")).toBe("The sky is blue");
    expect((await usageRow(user)).other.stream_cut).toBe("ended_early");
  });
});

const anthropicHeaders = (key: string) => ({ "x-api-key": key, "anthropic-version": "2023-06-01" });
const messagesBody = (model: string) => ({
  model,
  max_tokens: 100,
  stream: true as const,
  messages: [{ role: "user" as const, content: "Hi" }],
});
const anthropicClient = (key: string) =>
  new Anthropic({ apiKey: key, baseURL: baseUrl(), maxRetries: 0, timeout: 20_000 });

describe("the Anthropic surface (/v1/messages)", () => {
  it("pass-through: a reset mid-reply ends in Anthropic's error event (api_error), no message_stop; logged as cut", async () => {
    upstream.cut = { after: 4, how: "reset" }; // message_start, content_block_start, ping, "Hello"
    const { user, key } = await userWithToken(100_000);
    const res = await post("/v1/messages", anthropicHeaders(key), messagesBody(claudeModel));
    expect(res.status).toBe(200);
    const got = frames(await res.text());
    expect(got.map((f) => f.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "error",
    ]);
    expect(JSON.parse(got.at(-1)!.data)).toEqual({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("上游") },
    });
    const { row, other } = await usageRow(user);
    expect(other.stream_cut).toBe("connection_lost");
    expect(row.completion_tokens).toBe(1); // "Hello"
  });

  it("pass-through: the Anthropic SDK raises on a stream whose body ended before message_stop", async () => {
    upstream.cut = { after: 7, how: "end" }; // everything up to message_delta's stop, but no message_stop
    const { user, key } = await userWithToken(100_000);
    const stream = await anthropicClient(key).messages.create(messagesBody(claudeModel));
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(seen).toContain("message_delta");
    expect(seen).not.toContain("message_stop");
    const { row, other } = await usageRow(user);
    expect(other.stream_cut).toBe("ended_early");
    expect([row.prompt_tokens, row.completion_tokens]).toEqual([14, 5]); // message_delta's usage came, and is billed
  });

  it("converted from an OpenAI channel: a reset ends in the error event, no message_delta or message_stop; the SDK raises", async () => {
    upstream.cut = { after: 2, how: "reset" };
    const { user, key } = await userWithToken(100_000);
    const raw = frames(await (await post("/v1/messages", anthropicHeaders(key), messagesBody(gptModel))).text());
    expect(raw.at(-1)!.event).toBe("error");
    expect(JSON.parse(raw.at(-1)!.data)).toEqual({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("上游") },
    });
    expect(raw.map((f) => f.event)).not.toContain("message_stop");
    expect(raw.map((f) => f.event)).not.toContain("message_delta");
    expect((await usageRow(user)).other.stream_cut).toBe("connection_lost");

    const stream = await anthropicClient(key).messages.create(messagesBody(gptModel));
    const error = await (async () => {
      for await (const event of stream) void event;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
  });

  it("pass-through: an upstream gone quiet is cut at STREAMING_TIMEOUT with a timeout_error event; logged as idle_timeout", async () => {
    upstream.cut = { after: 4, how: "stall" };
    const { user, key } = await userWithToken(100_000);
    const got = frames(await (await post("/v1/messages", anthropicHeaders(key), messagesBody(claudeModel))).text());
    expect(got.at(-1)!.event).toBe("error");
    expect(JSON.parse(got.at(-1)!.data)).toMatchObject({ type: "error", error: { type: "timeout_error" } });
    expect(got.map((f) => f.event)).not.toContain("message_stop");
    expect((await usageRow(user)).other.stream_cut).toBe("idle_timeout");
  });
});

const geminiStreamPath = (model: string) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`;
const geminiBody = { contents: [{ role: "user", parts: [{ text: "Why is the sky blue?" }] }] };

describe("the Gemini surface (:streamGenerateContent)", () => {
  it("pass-through: a body ended before any finishReason ends in Google's error object as the last event; logged as cut", async () => {
    upstream.cut = { after: 2, how: "end" };
    const { user, key } = await userWithToken(100_000);
    const res = await post(geminiStreamPath(geminiModel), { "x-goog-api-key": key }, geminiBody);
    expect(res.status).toBe(200);
    const got = frames(await res.text());
    expect(got).toHaveLength(3);
    expect(JSON.parse(got.at(-1)!.data)).toEqual({
      error: { code: 500, message: expect.stringContaining("上游"), status: "INTERNAL" },
    });
    const { row, other } = await usageRow(user);
    expect(other.stream_cut).toBe("ended_early");
    expect(row.completion_tokens).toBeGreaterThan(0);
  });

  it("pass-through: the genai SDK raises on a stream whose connection was reset", async () => {
    upstream.cut = { after: 1, how: "reset" };
    const { user, key } = await userWithToken(100_000);
    const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: baseUrl(), retryOptions: { attempts: 1 } } });
    let text = "";
    const error = await (async () => {
      for await (const chunk of await client.models.generateContentStream({
        model: geminiModel,
        contents: "Why is the sky blue?",
      }))
        text += chunk.text ?? "";
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { status?: number }).status).toBe(500);
    expect(text).toBe("The");
    expect((await usageRow(user)).other.stream_cut).toBe("connection_lost");
  });

  it("converted from an OpenAI channel: a reset ends in Google's error object, not a last chunk with a finishReason", async () => {
    upstream.cut = { after: 2, how: "reset" };
    const { user, key } = await userWithToken(100_000);
    const got = frames(await (await post(geminiStreamPath(gptModel), { "x-goog-api-key": key }, geminiBody)).text());
    expect(JSON.parse(got.at(-1)!.data)).toEqual({
      error: { code: 500, message: expect.stringContaining("上游"), status: "INTERNAL" },
    });
    expect(got.some((f) => f.data.includes("finishReason"))).toBe(false);
    expect((await usageRow(user)).other.stream_cut).toBe("connection_lost");
  });
});

describe("the Responses surface (/v1/responses)", () => {
  it("pass-through: a reset mid-reply ends in an error event, never response.completed; logged as cut", async () => {
    upstream.cut = { after: 5, how: "reset" }; // through the "Hi" delta
    const { user, client } = await userWithToken(100_000);
    const stream = await client.responses.create({ model: gptModel, input: "Hi", stream: true });
    const events: { type: string; [field: string]: unknown }[] = [];
    for await (const event of stream) events.push(event as unknown as (typeof events)[number]);
    expect(events.map((e) => e.type)).not.toContain("response.completed");
    expect(events.at(-1)).toEqual({
      type: "error",
      code: "stream_interrupted",
      message: expect.stringContaining("上游"),
      param: null,
      sequence_number: 5,
    });
    const { row, other } = await usageRow(user);
    expect(other.stream_cut).toBe("connection_lost");
    expect(row.completion_tokens).toBe(1); // "Hi"
  });

  it("converted for a chat-only channel: a body ended early ends in an error event, never response.completed", async () => {
    upstream.cut = { after: 3, how: "end" };
    const { user, key } = await userWithToken(100_000);
    const got = frames(
      await (
        await post(
          "/v1/responses",
          { Authorization: `Bearer ${key}` },
          { model: chatOnlyModel, input: "Hi", stream: true },
        )
      ).text(),
    );
    const names = got.map((f) => f.event);
    expect(names).not.toContain("response.completed");
    expect(names.at(-1)).toBe("error");
    expect(JSON.parse(got.at(-1)!.data)).toMatchObject({
      type: "error",
      code: "stream_interrupted",
      message: expect.stringContaining("上游"),
    });
    expect((await usageRow(user)).other.stream_cut).toBe("ended_early");
  });
});
