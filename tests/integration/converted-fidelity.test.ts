import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { setUpConvertedChannels } from "../support/converted-channels";
import { uniqueModel } from "../support/relay";

/**
 * The Anthropic and Gemini surfaces served by OpenAI channels, through the real server and the
 * official SDKs: what has an OpenAI counterpart goes up (thinking as reasoning effort, the service
 * tier, top_k where the channel takes it, candidateCount as n, a failed tool's result marked), and
 * the reply's cached and reasoning tokens come back in the client's protocol.
 */
let openai: MockUpstream;
let compatible: MockUpstream;
let key = "";
let closeUpstreams: (() => Promise<void>) | undefined;
const model = uniqueModel("conv");
const compatibleModel = uniqueModel("conv-compat");
const CACHED_USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 40,
  total_tokens: 1240,
  prompt_tokens_details: { cached_tokens: 1000 },
  completion_tokens_details: { reasoning_tokens: 15 },
};

beforeAll(async () => {
  ({
    openai,
    compatible,
    key,
    close: closeUpstreams,
  } = await setUpConvertedChannels(() => startOpenAiMock(), model, compatibleModel));
}, 60_000);
afterAll(async () => {
  await closeUpstreams?.();
});

const anthropic = () => new Anthropic({ apiKey: key, baseURL: baseUrl(), maxRetries: 0, timeout: 20_000 });
const genai = () =>
  new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: baseUrl(), retryOptions: { attempts: 1 } } });
const sentBody = (mock: MockUpstream) => JSON.parse(mock.requests.at(-1)!.body) as Record<string, any>;

describe("Anthropic Messages → an OpenAI channel", () => {
  it("sends thinking, service tier and a failed tool's result; top_k only to a channel that takes it", async () => {
    const request = {
      max_tokens: 100,
      top_k: 30,
      service_tier: "standard_only" as const,
      thinking: { type: "enabled" as const, budget_tokens: 20_000 },
      messages: [
        { role: "user" as const, content: "read it" },
        {
          role: "assistant" as const,
          content: [{ type: "tool_use" as const, id: "toolu_1", name: "read", input: {} }],
        },
        {
          role: "user" as const,
          content: [
            { type: "tool_result" as const, tool_use_id: "toolu_1", is_error: true, content: "permission denied" },
          ],
        },
      ],
    };
    await anthropic().messages.create({ ...request, model });
    const up = sentBody(openai);
    expect(up).toMatchObject({ reasoning_effort: "high", service_tier: "default" });
    expect(up.top_k).toBeUndefined();
    expect(up.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "toolu_1", content: "Error: permission denied" });
    await anthropic().messages.create({ ...request, model: compatibleModel });
    expect(sentBody(compatible).top_k).toBe(30);
  });

  it("reports the cache's reads apart from input_tokens, whole and streamed; message_start states the prompt", async () => {
    openai.fault = { kind: "usage", json: JSON.stringify(CACHED_USAGE) };
    try {
      const whole = await anthropic().messages.create({
        model,
        max_tokens: 100,
        messages: [{ role: "user", content: "hi there, a long shared prefix" }],
      });
      expect(whole.usage).toMatchObject({
        input_tokens: 200,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 0,
        output_tokens: 40,
      });
      const stream = anthropic().messages.stream({
        model,
        max_tokens: 100,
        messages: [{ role: "user", content: "hi there, a long shared prefix" }],
      });
      let startInput = -1;
      for await (const event of stream)
        if (event.type === "message_start") startInput = event.message.usage.input_tokens;
      expect(startInput).toBeGreaterThan(0);
      expect((await stream.finalMessage()).usage).toMatchObject({
        input_tokens: 200,
        cache_read_input_tokens: 1000,
        output_tokens: 40,
      });
    } finally {
      openai.fault = undefined;
    }
  });
});

describe("Gemini generateContent → an OpenAI channel", () => {
  it("sends candidateCount as n, the thinking budget as the reasoning effort, topK only where it is taken", async () => {
    const config = { candidateCount: 2, topK: 12, thinkingConfig: { thinkingBudget: 8192 } };
    await genai().models.generateContent({ model, contents: "hi", config });
    expect(sentBody(openai)).toMatchObject({ n: 2, reasoning_effort: "medium" });
    expect(sentBody(openai).top_k).toBeUndefined();
    await genai().models.generateContent({ model: compatibleModel, contents: "hi", config });
    expect(sentBody(compatible)).toMatchObject({ n: 2, top_k: 12 });
  });

  it("reports cached content and thoughts as Gemini does, whole and streamed, with no empty text part", async () => {
    openai.fault = { kind: "usage", json: JSON.stringify(CACHED_USAGE) };
    try {
      const whole = await genai().models.generateContent({ model, contents: "hi" });
      expect(whole.usageMetadata).toMatchObject({
        promptTokenCount: 1200,
        cachedContentTokenCount: 1000,
        thoughtsTokenCount: 15,
        candidatesTokenCount: 25,
        totalTokenCount: 1240,
      });
      const chunks = [];
      for await (const chunk of await genai().models.generateContentStream({ model, contents: "hi" }))
        chunks.push(chunk);
      expect(chunks.at(-1)!.usageMetadata).toMatchObject({ cachedContentTokenCount: 1000, thoughtsTokenCount: 15 });
      for (const chunk of chunks)
        for (const part of chunk.candidates?.[0]?.content?.parts ?? [])
          expect(part.text === "" && !part.functionCall).toBe(false);
    } finally {
      openai.fault = undefined;
    }
  });
});
