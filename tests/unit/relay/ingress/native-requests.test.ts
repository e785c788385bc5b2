import { describe, expect, it } from "vitest";
import { anthropicToOpenAi } from "~/relay/ingress/anthropic/to-openai";
import { geminiToOpenAi, wantsThoughts } from "~/relay/ingress/gemini/to-openai";
import { convertingAdapter } from "~/relay/ingress/converting-adapter";
import { anthropicReplyCodec } from "~/relay/ingress/anthropic/reply-codec";
import { geminiReplyCodec } from "~/relay/ingress/gemini/reply-codec";
import { adapterFor } from "~/relay/adapters/registry";
import type { AdapterContext } from "~/relay/adapters/types";
import { parseGeminiUsage } from "~/relay/billing/usage-parse";
import { responsesToOpenAi } from "~/relay/ingress/responses/to-openai";
import {
  forwardedProtocols,
  RealtimeMeter,
  realtimeCredential,
  realtimeUrl,
} from "~/relay/ingress/realtime/realtime-terms";

describe("native requests → OpenAI chat", () => {
  it("Anthropic: system blocks, images, a tool loop and tool choice", () => {
    const body = anthropicToOpenAi({
      model: "m",
      max_tokens: 64,
      stream: true,
      stop_sequences: ["END"],
      metadata: { user_id: "u1" },
      system: [{ type: "text", text: "Be brief." }],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "look", input: { q: "x" } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "a cat" }] },
            { type: "text", text: "So?" },
          ],
        },
      ],
      tools: [{ name: "look", description: "Looks", input_schema: { type: "object", properties: {} } }],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
    });
    expect(body).toEqual({
      model: "m",
      max_tokens: 64,
      stream: true,
      stop: ["END"],
      user: "u1",
      messages: [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "toolu_1", type: "function", function: { name: "look", arguments: '{"q":"x"}' } }],
        },
        { role: "tool", tool_call_id: "toolu_1", content: "a cat" },
        { role: "user", content: "So?" },
      ],
      tools: [
        {
          type: "function",
          function: { name: "look", description: "Looks", parameters: { type: "object", properties: {} } },
        },
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
    });
  });

  it("Gemini: snake_case fields, function calls given ids their responses are matched to, schema types lower-cased", () => {
    const body = geminiToOpenAi(
      {
        system_instruction: { parts: [{ text: "Answer briefly." }] },
        contents: [
          { role: "user", parts: [{ text: "Weather?" }, { inline_data: { mime_type: "image/jpeg", data: "/9j/" } }] },
          { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] },
          { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { content: "4°C" } } }] },
        ],
        tools: [
          {
            functionDeclarations: [
              { name: "get_weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } } },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
        generation_config: {
          max_output_tokens: 30,
          temperature: 0.2,
          stopSequences: ["x"],
          responseMimeType: "application/json",
        },
      },
      "gemini-x",
      true,
    );
    expect(body).toEqual({
      model: "gemini-x",
      stream: true,
      max_tokens: 30,
      temperature: 0.2,
      stop: ["x"],
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: "Answer briefly." },
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"content":"4°C"}' },
      ],
      tools: [
        {
          type: "function",
          function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
        },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
    });
  });

  it("Anthropic: thinking, service tier, top_k, a failed tool's result and a PDF are carried", () => {
    const body = anthropicToOpenAi({
      model: "m",
      max_tokens: 64,
      top_k: 40,
      service_tier: "standard_only",
      thinking: { type: "enabled", budget_tokens: 10_000 },
      messages: [
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read", input: {} }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", is_error: true, content: "file not found" },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } },
            { type: "text", text: "Summarise", cache_control: { type: "ephemeral" } },
          ],
        },
      ],
    });
    expect(body).toMatchObject({ top_k: 40, service_tier: "default", reasoning_effort: "medium" });
    const messages = body.messages as Record<string, unknown>[];
    expect(messages[1]).toEqual({ role: "tool", tool_call_id: "t1", content: "Error: file not found" });
    expect(messages[2]!.content).toEqual([
      { type: "file", file: { filename: "document.pdf", file_data: "data:application/pdf;base64,JVBERi0=" } },
      { type: "text", text: "Summarise" },
    ]);
    expect(
      anthropicToOpenAi({ model: "m", messages: [], thinking: { type: "enabled", budget_tokens: 1024 } })
        .reasoning_effort,
    ).toBe("low");
    expect(
      anthropicToOpenAi({ model: "m", messages: [], thinking: { type: "enabled", budget_tokens: 32_000 } })
        .reasoning_effort,
    ).toBe("high");
    expect(
      anthropicToOpenAi({ model: "m", messages: [], thinking: { type: "disabled" }, service_tier: "auto" }),
    ).toMatchObject({ service_tier: "auto" });
    expect(
      anthropicToOpenAi({ model: "m", messages: [], thinking: { type: "disabled" } }).reasoning_effort,
    ).toBeUndefined();
  });

  it("Gemini: topK, candidateCount as n, a thinking budget as the reasoning effort, includeThoughts read", () => {
    const native = {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
      generationConfig: {
        topK: 20,
        candidateCount: 2,
        thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
      },
    };
    expect(geminiToOpenAi(native, "g", false)).toMatchObject({ top_k: 20, n: 2, reasoning_effort: "low" });
    expect(wantsThoughts(native)).toBe(true);
    expect(
      geminiToOpenAi({ generationConfig: { thinkingConfig: { thinkingBudget: -1 } } }, "g", false).reasoning_effort,
    ).toBeUndefined();
    expect(
      geminiToOpenAi({ generationConfig: { thinkingConfig: { thinkingLevel: "HIGH" } } }, "g", false).reasoning_effort,
    ).toBe("high");
    expect(geminiToOpenAi({ generationConfig: { candidateCount: 1 } }, "g", false).n).toBeUndefined();
  });

  it("top_k goes to OpenAI-compatible servers, not to OpenAI's or Azure's API, which refuse it", async () => {
    const ctx = (type: number) =>
      ({
        channel: { id: 1, type, base_url: "http://up.example", other: "2024-02-01", key: "k" },
        key: "k",
        mode: "chat",
        path: "/v1/chat/completions",
        body: { model: "m", messages: [], top_k: 40 },
        upstreamModel: "m",
        requestModel: "m",
        stream: false,
      }) as unknown as AdapterContext;
    const sent = async (type: number) =>
      JSON.parse(
        String((await convertingAdapter(adapterFor(type), anthropicReplyCodec).buildRequest(ctx(type))).body),
      ) as Record<string, unknown>;
    expect((await sent(1)).top_k).toBeUndefined();
    expect((await sent(3)).top_k).toBeUndefined();
    expect((await sent(8)).top_k).toBe(40);
  });

  it("a converted reply's usage keeps the cache and reasoning parts in each protocol's terms; n choices are n candidates", () => {
    const reply = {
      id: "chatcmpl-1",
      choices: [
        { index: 0, message: { role: "assistant", content: "A", reasoning_content: "why" }, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: "B" }, finish_reason: "length" },
      ],
    };
    const usage = {
      prompt_tokens: 100,
      completion_tokens: 30,
      cached_tokens: 80,
      cache_write_tokens: 5,
      reasoning_tokens: 12,
    };
    const anthropic = anthropicReplyCodec.convertReply(reply, usage, "m") as { usage: unknown; content: unknown[] };
    expect(anthropic.usage).toEqual({
      input_tokens: 15,
      cache_creation_input_tokens: 5,
      cache_read_input_tokens: 80,
      output_tokens: 30,
    });
    expect(anthropic.content[0]).toEqual({ type: "thinking", thinking: "why", signature: "" });
    const gemini = geminiReplyCodec({ thoughts: false }).convertReply(reply, usage, "m") as {
      usageMetadata: unknown;
      candidates: unknown[];
    };
    expect(gemini.usageMetadata).toEqual({
      promptTokenCount: 100,
      candidatesTokenCount: 18,
      totalTokenCount: 130,
      cachedContentTokenCount: 80,
      thoughtsTokenCount: 12,
    });
    expect(gemini.candidates).toEqual([
      { content: { role: "model", parts: [{ text: "A" }] }, finishReason: "STOP", index: 0 },
      { content: { role: "model", parts: [{ text: "B" }] }, finishReason: "MAX_TOKENS", index: 1 },
    ]);
    const withThoughts = geminiReplyCodec({ thoughts: true }).convertReply(reply, usage, "m") as {
      candidates: { content: { parts: unknown[] } }[];
    };
    expect(withThoughts.candidates[0]!.content.parts[0]).toEqual({ text: "why", thought: true });
  });

  it("Gemini usage: thoughts count as output; a bad count is not believed", () => {
    expect(parseGeminiUsage({ promptTokenCount: 7, candidatesTokenCount: 12, thoughtsTokenCount: 5 }).usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: 17,
      reasoning_tokens: 5,
    });
    expect(parseGeminiUsage({ promptTokenCount: "NaN", candidatesTokenCount: 1 }).usage).toBeUndefined();
    expect(
      parseGeminiUsage({ promptTokenCount: 1, candidatesTokenCount: 1, thoughtsTokenCount: -3 }).usage,
    ).toBeUndefined();
  });

  it("Responses: instructions, parallel function calls merged into one assistant turn, flat tools nested, text.format", () => {
    const body = responsesToOpenAi({
      model: "m",
      instructions: "Be brief.",
      max_output_tokens: 20,
      reasoning: { effort: "low" },
      input: [
        { role: "user", content: [{ type: "input_text", text: "Weather in Oslo and Bergen?" }] },
        { type: "function_call", call_id: "c1", name: "w", arguments: '{"city":"Oslo"}' },
        { type: "function_call", call_id: "c2", name: "w", arguments: '{"city":"Bergen"}' },
        { type: "function_call_output", call_id: "c1", output: "4°C" },
        { type: "function_call_output", call_id: "c2", output: "6°C" },
      ],
      tools: [{ type: "function", name: "w", parameters: { type: "object" } }, { type: "web_search" }],
      tool_choice: { type: "function", name: "w" },
      text: { format: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true } },
    });
    expect(body).toEqual({
      model: "m",
      max_tokens: 20,
      reasoning_effort: "low",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Oslo and Bergen?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "w", arguments: '{"city":"Oslo"}' } },
            { id: "c2", type: "function", function: { name: "w", arguments: '{"city":"Bergen"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "4°C" },
        { role: "tool", tool_call_id: "c2", content: "6°C" },
      ],
      tools: [{ type: "function", function: { name: "w", parameters: { type: "object" } } }],
      tool_choice: { type: "function", function: { name: "w" } },
      response_format: {
        type: "json_schema",
        json_schema: { name: "answer", schema: { type: "object" }, strict: true },
      },
    });
  });
});

describe("Realtime terms", () => {
  it("reads the key from Bearer or the insecure-api-key subprotocol, and never forwards that one", () => {
    expect(realtimeCredential({ authorization: "Bearer sk-a" })).toBe("Bearer sk-a");
    const headers = { "sec-websocket-protocol": "realtime, openai-insecure-api-key.sk-b, openai-beta.realtime-v1" };
    expect(realtimeCredential(headers)).toBe("Bearer sk-b");
    expect(forwardedProtocols(headers)).toEqual(["realtime", "openai-beta.realtime-v1"]);
    expect(realtimeCredential({})).toBeUndefined();
  });

  it("builds the upstream WebSocket URL from the channel base", () => {
    expect(realtimeUrl("https://api.openai.com/", "gpt-4o-realtime")).toBe(
      "wss://api.openai.com/v1/realtime?model=gpt-4o-realtime",
    );
    expect(realtimeUrl("http://127.0.0.1:9", "a b")).toBe("ws://127.0.0.1:9/v1/realtime?model=a%20b");
    expect(realtimeUrl("", "m")).toBeUndefined();
  });

  it("adds up usage from response.done events only, ignoring unbelievable counts", () => {
    const meter = new RealtimeMeter();
    meter.read(
      JSON.stringify({
        type: "response.done",
        response: { usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14 } },
      }),
    );
    meter.read(
      JSON.stringify({ type: "response.created", response: { usage: { input_tokens: 99, output_tokens: 99 } } }),
    );
    meter.read(JSON.stringify({ type: "response.done", response: { usage: { input_tokens: "x", output_tokens: 4 } } }));
    meter.read(JSON.stringify({ type: "response.done", response: { usage: { input_tokens: 5, output_tokens: 1 } } }));
    expect(meter.usage).toEqual({ prompt_tokens: 15, completion_tokens: 5 });
    expect(meter.responses).toBe(3);
    expect(meter.warning).toMatch(/input_tokens/);
  });
});

describe("Gemini logprobs → OpenAI and back", () => {
  it("responseLogprobs asks for logprobs, logprobs for that many top candidates; none unless asked", () => {
    const config = (generationConfig: Record<string, unknown>) =>
      geminiToOpenAi({ contents: [], generationConfig }, "g", false);
    expect(config({ responseLogprobs: true, logprobs: 3 })).toMatchObject({ logprobs: true, top_logprobs: 3 });
    expect(config({ response_logprobs: true })).toMatchObject({ logprobs: true });
    expect(config({ logprobs: 3 }).logprobs).toBeUndefined();
    expect(config({ responseLogprobs: true, logprobs: "3" }).top_logprobs).toBeUndefined();
  });

  it("a whole reply's token logprobs come back as the candidate's logprobsResult; junk entries are skipped", () => {
    const reply = {
      id: "c",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hi" },
          finish_reason: "stop",
          logprobs: {
            content: [
              {
                token: "Hi",
                logprob: -0.1,
                top_logprobs: [{ token: "Hi", logprob: -0.1 }, { token: "Yo", logprob: -2.5 }, { token: 7 }],
              },
              "junk",
            ],
          },
        },
      ],
    };
    const converted = geminiReplyCodec({ thoughts: false }).convertReply(
      reply,
      { prompt_tokens: 1, completion_tokens: 1 },
      "g",
    ) as { candidates: Record<string, unknown>[] };
    expect(converted.candidates[0]!.logprobsResult).toEqual({
      chosenCandidates: [{ token: "Hi", logProbability: -0.1 }],
      topCandidates: [
        {
          candidates: [
            { token: "Hi", logProbability: -0.1 },
            { token: "Yo", logProbability: -2.5 },
          ],
        },
      ],
    });
    const plain = geminiReplyCodec({ thoughts: false }).convertReply(
      { choices: [{ index: 0, message: { content: "x" } }] },
      undefined,
      "g",
    ) as { candidates: Record<string, unknown>[] };
    expect(plain.candidates[0]!.logprobsResult).toBeUndefined();
  });
});
