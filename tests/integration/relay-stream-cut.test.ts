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
  return fetch(`${baseUrl()}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** A stream's frames: the event name (if any) and the data line. */
function frames(text: string): { event?: string; data: string }[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.trim())
    .map((frame) => ({ event: /^event: (.*)$/m.exec(frame)?.[1], data: /^data: (.*)$/m.exec(frame)?.[1] ?? "" }));
}

const chatBody = (model: string, extra: Record<string, unknown> = {}) => ({ model, stream: true, messages: [{ role: "user", content: "say hello to the gateway" }], ...extra });
const openAiChat = (key: string, body: unknown) => post("/v1/chat/completions", { Authorization: `Bearer ${key}` }, body);
const deltaText = (data: string) => {
  const chunk = JSON.parse(data) as { choices: { delta?: { content?: string }; text?: string }[] };
  return chunk.choices[0]?.delta?.content ?? chunk.choices[0]?.text ?? "";
};

/** The OpenAI error event a cut stream ends with. */
const INTERRUPTED = { error: { message: expect.stringContaining("上游"), type: "upstream_error", code: "stream_interrupted", param: null } };

describe("the OpenAI surface", () => {
  it("a clean stream ends exactly as before: every upstream chunk but the usage-only one, then [DONE]; nothing logged as cut", async () => {
    const { user, key } = await userWithToken(100_000);
    const res = await openAiChat(key, chatBody(gptModel));
    expect(res.status).toBe(200);
    const recorded = readFileSync(new URL("../fixtures/upstream/openai/chat-stream.sse", import.meta.url), "utf8");
    const expected = recorded.split("\n\n").filter((e) => e.trim() && !e.includes('"choices":[]')).map((e) => `${e}\n\n`).join("");
    expect(await res.text()).toBe(expected);
    expect(expected.endsWith("data: [DONE]\n\n")).toBe(true);
    const { row, other } = await usageRow(user);
    expect([row.prompt_tokens, row.completion_tokens]).toEqual([9, 3]);
    expect(other.stream_cut).toBeUndefined();
  });

  it("a clean stream with include_usage passes the upstream's bytes through unchanged", async () => {
    const { key } = await userWithToken(100_000);
    const res = await openAiChat(key, chatBody(gptModel, { stream_options: { include_usage: true } }));
    expect(await res.text()).toBe(readFileSync(new URL("../fixtures/upstream/openai/chat-stream.sse", import.meta.url), "utf8"));
  });

  it("a connection reset mid-reply ends in an OpenAI error event and no [DONE]; billed for what came and logged as cut", async () => {
    upstream.cut = { after: 2, how: "reset" }; // the role chunk and "Hi"
    const { user, key } = await userWithToken(100_000);
    const res = await openAiChat(key, chatBody(gptModel));
    expect(res.status).toBe(200);
    const text = await res.text();
    const data = frames(text).map((f) => f.data);
    expect(data).not.toContain("[DONE]");
    expect(text).toMatch(/data: \{"error":\{"message":"[^"]+","type":"upstream_error","code":"stream_interrupted","param":null\}\}\n\n$/);
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
    expect(JSON.parse(data.at(-2)!)).toMatchObject({ id: "chatcmpl-Q7", object: "chat.completion.chunk", model: gptModel, choices: [], usage: { prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens, total_tokens: row.quota } });
  });

  it("the openai SDK raises on the cut stream, after handing over the text that came", async () => {
    upstream.cut = { after: 3, how: "reset" };
    const { client } = await userWithToken(100_000);
    const stream = await client.chat.completions.create({ model: gptModel, stream: true, messages: [{ role: "user", content: "hi" }] });
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
    const res = await post("/v1/completions", { Authorization: `Bearer ${key}` }, { model: gptModel, stream: true, prompt: "Tell a story" });
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
