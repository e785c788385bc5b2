import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Channel } from "../../../db/schema";
import { toGeminiEmbedRequest, toGeminiRequest } from "~/relay/adapters/gemini/convert-request";
import {
  mapGeminiFinishReason,
  parseGeminiUsage,
  toOpenAiChatResponse,
} from "~/relay/adapters/gemini/convert-response";
import { createGeminiStreamTranslator } from "~/relay/adapters/gemini/convert-stream";
import { parseGoogleError } from "~/relay/adapters/gemini/errors";
import { geminiAdapter } from "~/relay/adapters/gemini/gemini-adapter";
import { ChannelConfigError, type AdapterContext } from "~/relay/adapters/types";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/upstream/gemini/${name}`, import.meta.url), "utf8");
const sseData = (text: string) =>
  text
    .split("\n\n")
    .filter((e) => e.trim())
    .map((e) => /^data: (.*)$/m.exec(e)![1]!);

function ctx(fields: Omit<Partial<AdapterContext>, "channel"> & { channel?: Partial<Channel> } = {}): AdapterContext {
  return {
    mode: "chat",
    path: "/v1/chat/completions",
    body: { model: "g", messages: [{ role: "user", content: "hi" }] },
    upstreamModel: "gemini-2.0-flash",
    requestModel: "g",
    stream: false,
    key: "AIza-test",
    ...fields,
    channel: { id: 7, type: 24, base_url: "", other: "", ...fields.channel } as Channel,
  };
}

describe("OpenAI → Gemini request", () => {
  it("moves system turns to systemInstruction, maps roles, images, tools, tool calls and tool results, merges turns", () => {
    const request = toGeminiRequest({
      model: "g",
      max_tokens: 200,
      temperature: 0.3,
      top_p: 0.9,
      stop: "END",
      seed: 7,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: "Answer briefly." },
        { role: "developer", content: [{ type: "text", text: "Use metric units." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.com/cat.webp?x=1" } },
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
        { role: "assistant", content: "It rains." },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather",
            parameters: {
              $schema: "http://json-schema.org/draft-07/schema#",
              type: "object",
              additionalProperties: false,
              properties: { city: { type: "string" } },
            },
          },
        },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
    });
    expect(request).toEqual({
      systemInstruction: { parts: [{ text: "Answer briefly." }, { text: "Use metric units." }] },
      contents: [
        {
          role: "user",
          parts: [
            { text: "What is this?" },
            { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
            { fileData: { mimeType: "image/webp", fileUri: "https://example.com/cat.webp?x=1" } },
            { text: "And the weather in Oslo?" },
          ],
        },
        { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { content: "4°C, rain" } } }] },
        { role: "model", parts: [{ text: "It rains." }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Weather",
              parameters: { type: "object", properties: { city: { type: "string" } } },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
      generationConfig: {
        temperature: 0.3,
        topP: 0.9,
        maxOutputTokens: 200,
        stopSequences: ["END"],
        seed: 7,
        responseMimeType: "application/json",
      },
    });
  });

  it("passes a JSON tool result as the response object and keeps a schema's property named like a keyword", () => {
    const request = toGeminiRequest({
      messages: [
        { role: "assistant", tool_calls: [{ id: "c", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c", content: '{"temp":4}' },
      ],
      tools: [
        {
          type: "function",
          function: { name: "f", parameters: { type: "object", properties: { strict: { type: "boolean" } } } },
        },
      ],
      tool_choice: "none",
    });
    expect((request.contents as { parts: unknown[] }[])[1]!.parts).toEqual([
      { functionResponse: { name: "f", response: { temp: 4 } } },
    ]);
    expect(request.tools).toEqual([
      {
        functionDeclarations: [
          { name: "f", parameters: { type: "object", properties: { strict: { type: "boolean" } } } },
        ],
      },
    ]);
    expect(request.toolConfig).toEqual({ functionCallingConfig: { mode: "NONE" } });
  });

  it("builds the exact upstream request: version from `other`, key in x-goog-api-key and never in the URL", () => {
    const plain = geminiAdapter.buildRequest(ctx()) as { url: string; headers: Record<string, string>; body: string };
    expect(plain.url).toBe("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent");
    expect(plain.headers).toEqual({ "Content-Type": "application/json", "x-goog-api-key": "AIza-test" });
    expect(JSON.parse(plain.body)).toEqual({ contents: [{ role: "user", parts: [{ text: "hi" }] }] });
    const streamed = geminiAdapter.buildRequest(
      ctx({
        stream: true,
        upstreamModel: "models/gemini-1.5-pro",
        channel: { base_url: "http://127.0.0.1:9/", other: "v1" },
      }),
    ) as { url: string };
    expect(streamed.url).toBe("http://127.0.0.1:9/v1/models/gemini-1.5-pro:streamGenerateContent?alt=sse");
    expect(streamed.url).not.toContain("AIza");
    expect(() => geminiAdapter.buildRequest(ctx({ channel: { other: "../v1?key=x" } }))).toThrow(ChannelConfigError);
  });

  it("embeddings go to batchEmbedContents, one request per input naming the model", () => {
    const built = geminiAdapter.buildRequest(
      ctx({
        mode: "embeddings",
        path: "/v1/embeddings",
        upstreamModel: "gemini-embedding-001",
        body: { model: "e", input: ["a", "b"], dimensions: 256 },
      }),
    ) as { url: string; body: string };
    expect(built.url).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:batchEmbedContents",
    );
    expect(JSON.parse(built.body)).toEqual({
      requests: [
        { model: "models/gemini-embedding-001", content: { parts: [{ text: "a" }] }, outputDimensionality: 256 },
        { model: "models/gemini-embedding-001", content: { parts: [{ text: "b" }] }, outputDimensionality: 256 },
      ],
    });
    expect(toGeminiEmbedRequest({ input: "one" }, "m").texts).toEqual(["one"]);
    const converted = geminiAdapter.convertResponse(
      ctx({ mode: "embeddings", body: { input: ["a", "b"] }, requestModel: "e" }),
      Buffer.from(fixture("embed.json")),
    );
    const body = JSON.parse(String(converted.body)) as {
      data: { index: number; embedding: number[] }[];
      model: string;
      usage: { prompt_tokens: number };
    };
    expect(body.data.map((d) => d.index)).toEqual([0, 1]);
    expect(body.data[1]!.embedding).toEqual([0.1, 0.2, -0.3]);
    expect(body.model).toBe("e");
    expect(converted.usage).toEqual({ prompt_tokens: 2, completion_tokens: 0 });
  });

  it("refuses modes Gemini does not serve as a channel misconfiguration (next channel tried)", () => {
    expect(() => geminiAdapter.buildRequest(ctx({ mode: "images", path: "/v1/images/generations" }))).toThrow(
      ChannelConfigError,
    );
  });
});

describe("Gemini → OpenAI response", () => {
  it("converts text and bills usageMetadata (completion = candidates + thoughts)", () => {
    const converted = toOpenAiChatResponse(JSON.parse(fixture("generate-text.json")), "g");
    expect(converted.body.choices).toEqual([
      {
        index: 0,
        message: { role: "assistant", content: "Rain, 4°C in Oslo." },
        logprobs: null,
        finish_reason: "stop",
      },
    ]);
    expect(converted.usage).toEqual({ prompt_tokens: 21, completion_tokens: 10, reasoning_tokens: 4 });
    expect(converted.body.usage).toMatchObject({
      prompt_tokens: 21,
      completion_tokens: 10,
      total_tokens: 31,
      completion_tokens_details: { reasoning_tokens: 4 },
    });
    expect(converted.body.model).toBe("g");
  });

  it("turns a functionCall into tool_calls with a synthesized id and finish_reason tool_calls", () => {
    const { body } = toOpenAiChatResponse(JSON.parse(fixture("generate-tool.json")), "g");
    const choice = body.choices[0] as {
      message: { content: unknown; tool_calls: { id: string; function: { name: string; arguments: string } }[] };
      finish_reason: string;
    };
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls[0]!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(choice.message.tool_calls[0]!.function).toEqual({ name: "get_weather", arguments: '{"city":"Oslo"}' });
    expect(choice.finish_reason).toBe("tool_calls");
  });

  it("a blocked prompt and safety stops are content_filter; MAX_TOKENS is length; others stop", () => {
    expect(toOpenAiChatResponse(JSON.parse(fixture("generate-blocked.json")), "g").body.choices[0]!.finish_reason).toBe(
      "content_filter",
    );
    expect(mapGeminiFinishReason("SAFETY", false)).toBe("content_filter");
    expect(mapGeminiFinishReason("PROHIBITED_CONTENT", false)).toBe("content_filter");
    expect(mapGeminiFinishReason("MAX_TOKENS", false)).toBe("length");
    expect(mapGeminiFinishReason("MALFORMED_FUNCTION_CALL", false)).toBe("stop");
    expect(mapGeminiFinishReason(undefined, false)).toBeUndefined();
  });

  it("does not believe a usageMetadata count that is not a non-negative integer", () => {
    expect(parseGeminiUsage({ promptTokenCount: "12", candidatesTokenCount: 3 }).usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 3,
    });
    const bad = parseGeminiUsage({ promptTokenCount: 5, candidatesTokenCount: -3 });
    expect(bad.usage).toBeUndefined();
    expect(bad.usageNote?.usage_warning).toContain("candidatesTokenCount");
    expect(
      parseGeminiUsage({ promptTokenCount: 5, candidatesTokenCount: 1, thoughtsTokenCount: "NaN" }).usage,
    ).toBeUndefined();
    expect(parseGeminiUsage(undefined).usage).toBeUndefined();
  });

  it("maps Google's error body with its status name", () => {
    expect(parseGoogleError(400, fixture("error-invalid-key.json"))).toEqual({
      message: "API key not valid. Please pass a valid API key.",
      type: "INVALID_ARGUMENT",
      code: "INVALID_ARGUMENT",
    });
    expect(
      parseGoogleError(
        429,
        JSON.stringify([{ error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } }]),
      ).code,
    ).toBe("RESOURCE_EXHAUSTED");
    expect(parseGoogleError(502, "<html>bad gateway</html>").code).toBe("bad_response_status_code");
  });
});

describe("Gemini stream → OpenAI chunks", () => {
  it("streams text deltas, finishes with stop and bills the final usageMetadata", () => {
    const translator = createGeminiStreamTranslator("g", true);
    const steps = sseData(fixture("stream-text.sse")).map((data) => translator.push(undefined, data));
    const chunks = steps.flatMap((s) =>
      s.chunks.map(
        (c) =>
          JSON.parse(c) as {
            choices: { delta: { content?: string; role?: string }; finish_reason: string | null }[];
            usage?: unknown;
          },
      ),
    );
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe(
      "The sky is blue because of Rayleigh scattering.",
    );
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 12, total_tokens: 19 },
    });
    // Usage is taken once, at the finish (the early events hold prompt counts only).
    expect(steps.map((s) => s.usage)).toEqual([undefined, undefined, { prompt_tokens: 7, completion_tokens: 12 }]);
    expect(steps.map((s) => s.text).join("")).toBe("The sky is blue because of Rayleigh scattering.");
  });

  it("streams a function call as one tool_calls delta and finishes with tool_calls; no usage chunk unless asked", () => {
    const translator = createGeminiStreamTranslator("g", false);
    const [step] = sseData(fixture("stream-tool.sse")).map((data) => translator.push(undefined, data));
    const chunks = step!.chunks.map(
      (c) =>
        JSON.parse(c) as {
          choices: {
            delta: { tool_calls?: { index: number; id: string; function: { name: string; arguments: string } }[] };
            finish_reason: string | null;
          }[];
        },
    );
    expect(chunks).toHaveLength(3);
    expect(chunks[1]!.choices[0]!.delta.tool_calls![0]).toMatchObject({
      index: 0,
      type: "function",
      function: { name: "get_weather", arguments: '{"city":"Oslo"}' },
    });
    expect(chunks[2]!.choices[0]!.finish_reason).toBe("tool_calls");
    expect(step!.usage).toEqual({ prompt_tokens: 30, completion_tokens: 5 });
  });

  it("a prompt blocked mid-stream finishes with content_filter; an error event is an error", () => {
    const translator = createGeminiStreamTranslator("g", false);
    const step = translator.push(undefined, fixture("generate-blocked.json"));
    expect(JSON.parse(step.chunks[0]!).choices[0].finish_reason).toBe("content_filter");
    const failed = createGeminiStreamTranslator("g", false).push(
      undefined,
      '{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}',
    );
    expect(failed.error).toEqual({ message: "The model is overloaded.", type: "UNAVAILABLE", code: "UNAVAILABLE" });
  });
});

describe("Gemini model list", () => {
  it("asks GET /{version}/models with the key in the header and reads ids without models/", async () => {
    const { geminiAdapter } = await import("~/relay/adapters/gemini/gemini-adapter");
    const channel = { id: 1, type: 24, base_url: "http://127.0.0.1:9/", other: "v1" };
    expect(geminiAdapter.listModels!.request(channel, "AIza-list")).toEqual({
      url: "http://127.0.0.1:9/v1/models?pageSize=1000",
      method: "GET",
      headers: { "x-goog-api-key": "AIza-list" },
      body: "",
    });
    const reply = JSON.stringify({
      models: [
        { name: "models/gemini-2.0-flash" },
        { name: "models/gemini-1.5-pro" },
        { name: 7 },
        { name: "models/gemini-1.5-pro" },
      ],
    });
    expect(geminiAdapter.listModels!.parse(reply)).toEqual(["gemini-1.5-pro", "gemini-2.0-flash"]);
  });
});

describe("embedding format", () => {
  it("base64 is the float32 little-endian bytes, as OpenAI sends it", async () => {
    const { formatEmbedding } = await import("~/relay/adapters/gemini/embedding-format");
    expect(formatEmbedding([0.5, -2], {})).toEqual([0.5, -2]);
    const encoded = formatEmbedding([0.5, -2], { encoding_format: "base64" }) as string;
    const bytes = Buffer.from(encoded, "base64");
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([0.5, -2]);
  });
});
