import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startAnthropicMock, type AnthropicMock } from "../mocks/anthropic-upstream";
import { startGeminiNativeMock, type GeminiNativeMock } from "../mocks/gemini-native-mock";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * The native client surfaces (decision 026) driven by the official SDKs, unchanged,
 * against loopback upstreams: pass-through where the channel speaks the client's protocol,
 * converted where it does not; billed, logged and failed over like chat.
 */
let root: ApiSession;
let claude: AnthropicMock;
let openai: MockUpstream;
let broken: MockUpstream;
let gemini: GeminiNativeMock;
const claudeModel = uniqueModel("claude");
const gptModel = uniqueModel("gpt");
const geminiModel = uniqueModel("gemini");
const chatOnlyModel = uniqueModel("chatonly");
const failoverModel = uniqueModel("failover");
const editModel = uniqueModel("edit");
const imageModel = uniqueModel("dall-e-2");
let claudeChannel = 0;

beforeAll(async () => {
  root = await loginRoot();
  claude = await startAnthropicMock("sk-ant-native");
  openai = await startOpenAiMock({ apiKey: "sk-upstream" });
  broken = await startOpenAiMock({ apiKey: "sk-upstream" });
  broken.fault = {
    kind: "status",
    status: 500,
    body: { error: { message: "boom", type: "server_error", code: null } },
  };
  gemini = await startGeminiNativeMock("g-key");
  const models = [claudeModel, gptModel, geminiModel, chatOnlyModel, failoverModel, editModel];
  await mergeOption(root, "ModelPrice", { [imageModel]: 0.02 });
  await createChannel(root, {
    type: 1,
    key: "sk-upstream",
    base_url: openai.url,
    models: `${editModel},${imageModel}`,
  });
  await mergeOption(root, "ModelRatio", Object.fromEntries(models.map((m) => [m, 1])));
  await mergeOption(root, "CompletionRatio", Object.fromEntries(models.map((m) => [m, 2])));
  claudeChannel = await createChannel(root, {
    type: 14,
    key: "sk-ant-native",
    base_url: claude.url,
    models: `${claudeModel},${failoverModel}`,
    model_mapping: JSON.stringify({ [claudeModel]: "claude-3-5-sonnet-20241022" }),
  });
  await createChannel(root, { type: 1, key: "sk-upstream", base_url: openai.url, models: gptModel });
  await createChannel(root, {
    type: 24,
    key: "g-key",
    base_url: gemini.url,
    models: geminiModel,
    model_mapping: JSON.stringify({ [geminiModel]: "gemini-2.0-flash" }),
  });
  // Moonshot (25) speaks only chat completions: a Responses client is converted for it.
  await createChannel(root, { type: 25, key: "sk-upstream", base_url: openai.url, models: chatOnlyModel });
  // The failing channel is tried first (higher priority); the Claude channel then answers.
  await createChannel(root, { type: 1, key: "sk-upstream", base_url: broken.url, models: failoverModel, priority: 10 });
}, 60_000);

afterAll(async () => {
  await claude?.close();
  await openai?.close();
  await broken?.close();
  await gemini?.close();
});

type LogRow = {
  model_name: string;
  prompt_tokens: number;
  completion_tokens: number;
  quota: number;
  channel: number;
  is_stream: boolean;
};
async function lastLog(user: ApiSession): Promise<LogRow> {
  const items = (await user.call("GET", "/api/log/self?p=1&page_size=10")).json.data.items as LogRow[];
  return items[0]!;
}

function anthropicClient(key: string) {
  return new Anthropic({ apiKey: key, baseURL: baseUrl(), maxRetries: 0, timeout: 20_000 });
}

function geminiClient(key: string) {
  return new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: baseUrl(), retryOptions: { attempts: 1 } } });
}

describe("Anthropic Messages POST /v1/messages", () => {
  it("passes a Claude channel the client's body with the mapped model and bills the reply's usage: 412 + 14×2 = 440", async () => {
    const { user, key } = await userWithToken(100_000);
    const message = await anthropicClient(key).messages.create({
      model: claudeModel,
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "Weather?" }],
    });
    expect(message.content).toEqual([{ type: "text", text: "It is 4°C with rain in Oslo." }]);
    expect(message.usage.input_tokens).toBe(412);
    const sent = claude.requests.at(-1)!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe("sk-ant-native");
    expect(JSON.parse(sent.body)).toEqual({
      model: "claude-3-5-sonnet-20241022",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "Weather?" }],
    });
    expect((await quotaOf(user)).used_quota).toBe(440);
    expect(await lastLog(user)).toMatchObject({
      model_name: claudeModel,
      prompt_tokens: 412,
      completion_tokens: 14,
      quota: 440,
      is_stream: false,
    });
  });

  it("streams a Claude channel's events through with their real names, read in fragments; billed 14 + 5×2 = 24", async () => {
    const { user, key } = await userWithToken(100_000);
    claude.fragment = true;
    try {
      const stream = anthropicClient(key).messages.stream({
        model: claudeModel,
        max_tokens: 100,
        messages: [{ role: "user", content: "Hi" }],
      });
      const names: string[] = [];
      for await (const event of stream) names.push(event.type);
      const final = await stream.finalMessage();
      expect(final.content.map((b) => (b.type === "text" ? b.text : "")).join("")).toBe("Hello there.");
      expect(names[0]).toBe("message_start");
      expect(names).toEqual(
        expect.arrayContaining([
          "content_block_start",
          "content_block_delta",
          "content_block_stop",
          "message_delta",
          "message_stop",
        ]),
      );
    } finally {
      claude.fragment = false;
    }
    expect((await quotaOf(user)).used_quota).toBe(24);
    expect(await lastLog(user)).toMatchObject({ prompt_tokens: 14, completion_tokens: 5, is_stream: true });
  });

  it("converts for an OpenAI channel both ways: chat body upstream, a Messages reply back; 61 + 17×2 = 95", async () => {
    const { user, key } = await userWithToken(100_000);
    const message = await anthropicClient(key).messages.create({
      model: gptModel,
      max_tokens: 50,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
    });
    expect(message.type).toBe("message");
    expect(message.content).toEqual([{ type: "text", text: "Hello there." }]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage).toMatchObject({ input_tokens: 61, output_tokens: 17 });
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(JSON.parse(sent.body)).toEqual({
      model: gptModel,
      max_tokens: 50,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
    expect((await quotaOf(user)).used_quota).toBe(95);
  });

  it("converts an OpenAI stream into Anthropic events the SDK assembles; usage as billed (9 + 3×2 = 15)", async () => {
    const { user, key } = await userWithToken(100_000);
    const stream = anthropicClient(key).messages.stream({
      model: gptModel,
      max_tokens: 50,
      messages: [{ role: "user", content: "Hi" }],
    });
    const names = new Set<string>();
    for await (const event of stream) names.add(event.type);
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "Hi there." }]);
    expect(final.stop_reason).toBe("end_turn");
    expect(final.usage).toMatchObject({ input_tokens: 9, output_tokens: 3 });
    expect([...names]).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect((await quotaOf(user)).used_quota).toBe(15);
  });

  it("fails over: the first channel's 500 is retried on the Claude channel, billed once", async () => {
    const { user, key } = await userWithToken(100_000);
    const before = broken.requests.length;
    const message = await anthropicClient(key).messages.create({
      model: failoverModel,
      max_tokens: 100,
      messages: [{ role: "user", content: "Weather?" }],
    });
    expect(message.content).toEqual([{ type: "text", text: "It is 4°C with rain in Oslo." }]);
    expect(broken.requests.length).toBe(before + 1);
    expect((await quotaOf(user)).used_quota).toBe(440);
    expect((await lastLog(user)).channel).toBe(claudeChannel);
  });

  it("answers a bad key and a bad body in Anthropic's error shape", async () => {
    const error = await anthropicClient("sk-not-a-key")
      .messages.create({ model: claudeModel, max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.AuthenticationError>).status).toBe(401);
    const raw = await fetch(`${baseUrl()}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "sk-not-a-key", "content-type": "application/json" },
      body: "{}",
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({
      type: "error",
      error: { type: "authentication_error", message: expect.stringContaining("无效的令牌") },
    });
    const { key } = await userWithToken(100_000);
    const bad = await fetch(`${baseUrl()}/v1/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: claudeModel, messages: [] }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });
});

describe("Gemini POST /v1beta/models/{model}:generateContent", () => {
  it("passes a Gemini channel the client's body at the mapped model's URL with the channel key; billed 21 + 6×2 = 33", async () => {
    const { user, key } = await userWithToken(100_000);
    const reply = await geminiClient(key).models.generateContent({ model: geminiModel, contents: "Weather in Oslo?" });
    expect(reply.text).toBe("Rain, 4°C.");
    expect(reply.usageMetadata?.promptTokenCount).toBe(21);
    const sent = gemini.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.0-flash:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe("g-key");
    expect(JSON.parse(sent.body)).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }],
    });
    expect((await quotaOf(user)).used_quota).toBe(33);
    expect(await lastLog(user)).toMatchObject({
      model_name: geminiModel,
      prompt_tokens: 21,
      completion_tokens: 6,
      quota: 33,
    });
  });

  it("streams a Gemini channel's chunks through (fragmented upstream reads); the last usageMetadata is billed: 7 + 12×2 = 31", async () => {
    const { user, key } = await userWithToken(100_000);
    let text = "";
    for await (const chunk of await geminiClient(key).models.generateContentStream({
      model: geminiModel,
      contents: "Why is the sky blue?",
    }))
      text += chunk.text ?? "";
    expect(text).toBe("The sky is blue because of Rayleigh scattering.");
    expect(gemini.requests.at(-1)!.path).toBe("/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse");
    expect((await quotaOf(user)).used_quota).toBe(31);
    expect(await lastLog(user)).toMatchObject({ prompt_tokens: 7, completion_tokens: 12, is_stream: true });
  });

  it("converts for an OpenAI channel, whole and streamed, with usageMetadata from the billed usage", async () => {
    const { user, key } = await userWithToken(100_000);
    const client = geminiClient(key);
    const reply = await client.models.generateContent({
      model: gptModel,
      contents: "Hi",
      config: { systemInstruction: "Be brief.", maxOutputTokens: 20, temperature: 0.5 },
    });
    expect(reply.text).toBe("Hello there.");
    expect(reply.candidates?.[0]?.finishReason).toBe("STOP");
    expect(reply.usageMetadata).toMatchObject({ promptTokenCount: 61, candidatesTokenCount: 17, totalTokenCount: 78 });
    expect(JSON.parse(openai.requests.at(-1)!.body)).toEqual({
      model: gptModel,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      temperature: 0.5,
      max_tokens: 20,
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of await client.models.generateContentStream({ model: gptModel, contents: "Hi" })) {
      text += chunk.text ?? "";
      usage = chunk.usageMetadata ?? usage;
    }
    expect(text).toBe("Hi there.");
    expect(usage).toMatchObject({ promptTokenCount: 9, candidatesTokenCount: 3 });
    expect((await quotaOf(user)).used_quota).toBe(61 + 17 * 2 + 9 + 3 * 2);
  });

  it("takes the key from ?key= too, and answers a bad key in Google's error shape", async () => {
    const { key } = await userWithToken(100_000);
    const ok = await fetch(`${baseUrl()}/v1beta/models/${geminiModel}:generateContent?key=${key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    });
    expect(ok.status).toBe(200);
    const bad = await fetch(`${baseUrl()}/v1beta/models/${geminiModel}:generateContent?key=sk-nope`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({
      error: { code: 401, status: "UNAUTHENTICATED", message: expect.stringContaining("无效的令牌") },
    });
    const error = await geminiClient("sk-nope")
      .models.generateContent({ model: geminiModel, contents: "hi" })
      .catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(401);
  });

  it("fails over from a Gemini channel's 500 to the next channel", async () => {
    const model = uniqueModel("gemfo");
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    const failing = await startGeminiNativeMock("g-key");
    failing.failWith = 500;
    try {
      await createChannel(root, { type: 24, key: "g-key", base_url: failing.url, models: model, priority: 10 });
      await createChannel(root, { type: 24, key: "g-key", base_url: gemini.url, models: model });
      const { key } = await userWithToken(100_000);
      const reply = await geminiClient(key).models.generateContent({ model, contents: "hi" });
      expect(reply.text).toBe("Rain, 4°C.");
      expect(failing.requests.length).toBe(1);
    } finally {
      await failing.close();
    }
  });
});

describe("OpenAI Responses POST /v1/responses", () => {
  it("passes an OpenAI channel through, whole and streamed; billed from input/output tokens", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.responses.create({ model: gptModel, input: "Hi" });
    expect(reply.output_text).toBe("Hi there.");
    expect(openai.requests.at(-1)!.path).toBe("/v1/responses");
    expect((await quotaOf(user)).used_quota).toBe(20 + 12 * 2);
    const stream = await client.responses.create({ model: gptModel, input: "Hi", stream: true });
    let text = "";
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
    }
    expect(text).toBe("Hi there.");
    expect(types.at(-1)).toBe("response.completed");
    expect((await quotaOf(user)).used_quota).toBe(44 + 8 + 3 * 2);
    expect(await lastLog(user)).toMatchObject({ prompt_tokens: 8, completion_tokens: 3, is_stream: true });
  });

  it("converts for a chat-only channel: instructions and input become chat messages, the reply a Response", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.responses.create({
      model: chatOnlyModel,
      instructions: "Be brief.",
      input: [{ role: "user", content: [{ type: "input_text", text: "Hi" }] }],
      max_output_tokens: 30,
    });
    expect(reply.object).toBe("response");
    expect(reply.output_text).toBe("Hello there.");
    expect(reply.usage).toMatchObject({ input_tokens: 61, output_tokens: 17, total_tokens: 78 });
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(JSON.parse(sent.body)).toEqual({
      model: chatOnlyModel,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      max_tokens: 30,
    });
    const stream = await client.responses.create({ model: chatOnlyModel, input: "Hi", stream: true });
    let text = "";
    let completed: { usage?: { input_tokens: number; output_tokens: number } } | undefined;
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    expect(text).toBe("Hi there.");
    expect(types.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(types.at(-1)).toBe("response.completed");
    expect(completed?.usage).toMatchObject({ input_tokens: 9, output_tokens: 3 });
    expect((await quotaOf(user)).used_quota).toBe(61 + 17 * 2 + 9 + 3 * 2);
  });

  it("answers a bad key and a missing input in the OpenAI error shape", async () => {
    const bad = await fetch(`${baseUrl()}/v1/responses`, {
      method: "POST",
      headers: { Authorization: "Bearer sk-nope", "content-type": "application/json" },
      body: "{}",
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { code: "invalid_token" } });
    const { key } = await userWithToken(100_000);
    const noInput = await fetch(`${baseUrl()}/v1/responses`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: gptModel }),
    });
    expect(noInput.status).toBe(400);
  });
});

describe("legacy edits, image edits and variations", () => {
  it("relays /v1/edits to an OpenAI channel as it is, priced like chat: 25 + 32×2 = 89", async () => {
    const { user, key } = await userWithToken(100_000);
    const res = await fetch(`${baseUrl()}/v1/edits`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: editModel,
        input: "What day of the wek is it?",
        instruction: "Fix the spelling mistakes",
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: "edit", choices: [{ text: "What day of the week is it?" }] });
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe("/v1/edits");
    expect(JSON.parse(sent.body)).toEqual({
      model: editModel,
      input: "What day of the wek is it?",
      instruction: "Fix the spelling mistakes",
    });
    expect((await quotaOf(user)).used_quota).toBe(89);
  });

  it("relays multipart image edits and variations with their bytes, charged per image (n from the form)", async () => {
    const { user, client } = await userWithToken(100_000);
    const png = Buffer.from("\x89PNG\r\n\x1a\n-not-really-an-image", "latin1");
    const edited = await client.images.edit({
      model: imageModel,
      image: await toFile(png, "cat.png", { type: "image/png" }),
      prompt: "add a hat",
      n: 2,
    });
    expect(edited.data).toHaveLength(2);
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe("/v1/images/edits");
    expect(sent.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain("-not-really-an-image");
    expect((await quotaOf(user)).used_quota).toBe(2 * 0.02 * 500_000);
    const varied = await client.images.createVariation({
      model: imageModel,
      image: await toFile(png, "cat.png", { type: "image/png" }),
    });
    expect(varied.data).toHaveLength(1);
    expect(openai.requests.at(-1)!.path).toBe("/v1/images/variations");
    expect((await quotaOf(user)).used_quota).toBe(3 * 0.02 * 500_000);
  });
});
