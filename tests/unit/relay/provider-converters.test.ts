import { readFileSync } from "node:fs";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { cohereAdapter } from "~/relay/adapters/cohere/cohere-adapter";
import { toCohereChat } from "~/relay/adapters/cohere/convert-request";
import { createCohereStreamTranslator } from "~/relay/adapters/cohere/convert-stream";
import {
  cloudflareAdapter,
  parseCloudflareError,
  parseCloudflareModels,
} from "~/relay/adapters/cloudflare/cloudflare-adapter";
import { difyAdapter, toDifyRequest } from "~/relay/adapters/dify/dify-adapter";
import { minimaxAdapter } from "~/relay/adapters/minimax/minimax-adapter";
import { minimaxFailure } from "~/relay/adapters/minimax/minimax-errors";
import { toOllamaChat } from "~/relay/adapters/ollama/convert-request";
import { createOllamaStreamTranslator } from "~/relay/adapters/ollama/convert-stream";
import { ollamaAdapter } from "~/relay/adapters/ollama/ollama-adapter";
import { adapterFor } from "~/relay/adapters/registry";
import { createNdjsonDecoder } from "~/relay/adapters/shared/ndjson-decoder";
import {
  ChannelConfigError,
  type AdapterContext,
  type StreamEvent,
  type StreamTranslator,
} from "~/relay/adapters/types";
import type { Channel } from "../../../db/schema";

const fixture = (path: string) => readFileSync(new URL(`../../fixtures/upstream/${path}`, import.meta.url), "utf8");
const json = (path: string) => JSON.parse(fixture(path)) as unknown;

function ctx(
  type: number,
  fields: Omit<Partial<AdapterContext>, "channel"> & { channel?: Partial<Channel> } = {},
): AdapterContext {
  const { channel, ...rest } = fields;
  return {
    channel: { id: 7, type, base_url: "", other: "", key_encrypted: "", ...channel } as Channel,
    key: "k",
    mode: "chat",
    path: "/v1/chat/completions",
    body: {},
    upstreamModel: "m",
    requestModel: "client-model",
    stream: false,
    ...rest,
  };
}

/** Runs a stream body cut every `piece` bytes through a decoder (or SSE parsing) and a translator. */
function translateInPieces(body: string, piece: number, translator: StreamTranslator, decode: "ndjson" | "sse") {
  const bytes = Buffer.from(body, "utf8");
  const events: StreamEvent[] = [];
  const decoder = createNdjsonDecoder();
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: e.data }) });
  const utf8 = new TextDecoder();
  for (let at = 0; at < bytes.length; at += piece) {
    const slice = bytes.subarray(at, at + piece);
    if (decode === "ndjson") events.push(...decoder.feed(slice));
    else parser.feed(utf8.decode(slice, { stream: true }));
  }
  let text = "";
  let finish: string | null = null;
  let usage;
  let done = false;
  let error;
  for (const event of events) {
    const step = translator.push(event.event, event.data);
    for (const chunk of step.chunks) {
      const parsed = JSON.parse(chunk) as {
        model: string;
        choices: { delta: { content?: string }; finish_reason: string | null }[];
      };
      expect(parsed.model).toBe("client-model");
      text += parsed.choices[0]?.delta.content ?? "";
      finish = parsed.choices[0]?.finish_reason ?? finish;
    }
    if (step.usage) usage = step.usage;
    if (step.error) error = step.error;
    done ||= step.done === true;
  }
  return { text, finish, usage, done, error };
}

describe("the exact upstream request", () => {
  const openAiChat = {
    model: "x",
    temperature: 0.2,
    max_tokens: 100,
    seed: 7,
    top_p: 0.9,
    stop: "END",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "developer", content: [{ type: "text", text: "Use metric units." }] },
      { role: "user", content: "Weather in Oslo?" },
      { role: "assistant", content: "4°C and rain." },
      { role: "user", content: [{ type: "text", text: "And in Bergen?" }] },
    ],
  };

  it("Cohere chat v1: message, chat_history, preamble, p, stop_sequences", () => {
    expect(toCohereChat(openAiChat, "command-r", true)).toEqual(json("cohere/chat-request.json"));
  });

  it("Ollama /api/chat: images as base64, tool call arguments as objects, options, format", () => {
    const body = toOllamaChat(
      {
        model: "x",
        stream: true,
        temperature: 0.5,
        top_p: 0.8,
        seed: 3,
        max_tokens: 256,
        stop: "###",
        response_format: { type: "json_object" },
        tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
        messages: [
          { role: "developer", content: "Be brief." },
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
              { type: "image_url", image_url: { url: "https://example.com/x.png" } },
            ],
          },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
            ],
          },
          { role: "tool", tool_call_id: "c1", content: '{"temp":4}' },
        ],
      },
      "llava",
      true,
    );
    expect(body).toEqual(json("ollama/chat-request.json"));
  });

  it("Dify chat-messages: the last user message is the query", () => {
    expect(
      toDifyRequest(
        {
          user: "u-42",
          messages: [
            { role: "user", content: "First" },
            { role: "assistant", content: "A" },
            { role: "user", content: "Second question" },
          ],
        },
        true,
      ),
    ).toEqual(json("dify/chat-request.json"));
  });

  it("each adapter's URL and credential", async () => {
    expect(
      (await cohereAdapter.buildRequest(ctx(34, { body: { messages: [{ role: "user", content: "x" }] } }))).url,
    ).toBe("https://api.cohere.ai/v1/chat");
    expect(
      (
        await cohereAdapter.buildRequest(
          ctx(34, { mode: "rerank", path: "/v1/rerank", body: { query: "q", documents: ["a"] } }),
        )
      ).url,
    ).toBe("https://api.cohere.ai/v1/rerank");
    const cf = await cloudflareAdapter.buildRequest(ctx(39, { channel: { other: "abc123" } }));
    expect(cf.url).toBe("https://api.cloudflare.com/client/v4/accounts/abc123/ai/v1/chat/completions");
    expect(cf.headers.Authorization).toBe("Bearer k");
    expect((await minimaxAdapter.buildRequest(ctx(35))).url).toBe("https://api.minimax.chat/v1/text/chatcompletion_v2");
    expect((await difyAdapter.buildRequest(ctx(37, { channel: { base_url: "http://dify.local/" } }))).url).toBe(
      "http://dify.local/v1/chat-messages",
    );
    expect(
      (await ollamaAdapter.buildRequest(ctx(4, { mode: "embeddings", path: "/v1/embeddings", body: { input: "a" } })))
        .url,
    ).toBe("http://localhost:11434/api/embed");
    expect((await adapterFor(45).buildRequest(ctx(45))).url).toBe(
      "https://ark.cn-beijing.volces.com/api/v3/chat/completions",
    );
    expect((await adapterFor(27).buildRequest(ctx(27))).url).toBe("https://api.perplexity.ai/chat/completions");
    expect((await adapterFor(20).buildRequest(ctx(20))).url).toBe("https://openrouter.ai/api/v1/chat/completions");
    expect((await adapterFor(43).buildRequest(ctx(43))).url).toBe("https://api.deepseek.com/v1/chat/completions");
    expect((await adapterFor(48).buildRequest(ctx(48))).url).toBe("https://api.x.ai/v1/chat/completions");
  });

  it("refuses instead of guessing a host: no base URL, no Cloudflare account, an endpoint the provider lacks", () => {
    for (const type of [3, 8, 47]) expect(() => adapterFor(type).buildRequest(ctx(type))).toThrow(ChannelConfigError);
    expect(() => cloudflareAdapter.buildRequest(ctx(39))).toThrow(/Account ID/);
    expect(() => difyAdapter.buildRequest(ctx(37, { mode: "embeddings", path: "/v1/embeddings" }))).toThrow(
      ChannelConfigError,
    );
    expect(() => adapterFor(38).buildRequest(ctx(38))).toThrow(ChannelConfigError);
  });
});

describe("streams cut at every byte boundary", () => {
  it.each([1, 2, 3, 7, 64])("Ollama NDJSON in %i-byte reads (multi-byte characters split too)", (piece) => {
    const out = translateInPieces(
      fixture("ollama/chat-stream.ndjson"),
      piece,
      createOllamaStreamTranslator("client-model", false),
      "ndjson",
    );
    expect(out).toMatchObject({
      text: "En älg 🫎",
      finish: "length",
      usage: { prompt_tokens: 26, completion_tokens: 3 },
      done: true,
    });
  });

  it.each([1, 5, 13])("Cohere NDJSON in %i-byte reads", (piece) => {
    const out = translateInPieces(
      fixture("cohere/chat-stream.ndjson"),
      piece,
      createCohereStreamTranslator("client-model", false),
      "ndjson",
    );
    expect(out).toMatchObject({
      text: "Bergen: 7°C, skurar ☔",
      finish: "length",
      usage: { prompt_tokens: 41, completion_tokens: 9 },
      done: true,
    });
  });

  it.each([1, 4, 11])("Dify SSE in %i-byte reads", (piece) => {
    const out = translateInPieces(
      fixture("dify/chat-stream.sse"),
      piece,
      difyAdapter.createStreamTranslator(ctx(37, { stream: true })),
      "sse",
    );
    expect(out).toMatchObject({
      text: "Hej världen",
      finish: "stop",
      usage: { prompt_tokens: 12, completion_tokens: 4 },
      done: true,
    });
  });

  it.each([1, 6])("MiniMax SSE in %i-byte reads: the summary event does not repeat the text", (piece) => {
    const out = translateInPieces(
      fixture("minimax/chat-stream.sse"),
      piece,
      minimaxAdapter.createStreamTranslator(ctx(35, { stream: true })),
      "sse",
    );
    expect(out).toMatchObject({ text: "Hej där", finish: "stop", usage: { prompt_tokens: 9, completion_tokens: 3 } });
  });

  it("an Ollama error line after streaming began is an error", () => {
    const out = translateInPieces(
      '{"message":{"content":"a"},"done":false}\n{"error":"out of memory"}\n',
      3,
      createOllamaStreamTranslator("client-model", false),
      "ndjson",
    );
    expect(out.error).toMatchObject({ message: "out of memory" });
  });
});

describe("model lists", () => {
  it("Cloudflare lists its catalogue under the account; Ollama its tags", () => {
    const channel = { id: 1, type: 39, base_url: "", other: "acc1" };
    expect(cloudflareAdapter.listModels!.request(channel, "t").url).toBe(
      "https://api.cloudflare.com/client/v4/accounts/acc1/ai/models/search?per_page=1000",
    );
    expect(
      parseCloudflareModels(
        JSON.stringify({
          success: true,
          result: [{ name: "@cf/meta/llama-3.1-8b-instruct" }, { name: "@cf/baai/bge-base-en-v1.5" }, { id: 3 }],
        }),
      ),
    ).toEqual(["@cf/baai/bge-base-en-v1.5", "@cf/meta/llama-3.1-8b-instruct"]);
    expect(() => cloudflareAdapter.listModels!.request({ ...channel, other: "" }, "t")).toThrow(/Account ID/);
    expect(
      ollamaAdapter.listModels!.request({ id: 1, type: 4, base_url: "http://gpu:11434/", other: "" }, "x").url,
    ).toBe("http://gpu:11434/api/tags");
  });
});

describe("errors in each provider's shape", () => {
  it("MiniMax base_resp codes become HTTP statuses that retry and auto-disable understand", () => {
    expect(minimaxFailure({ base_resp: { status_code: 1004, status_msg: "login fail" } })).toEqual({
      status: 401,
      error: { message: "login fail", type: "authentication_error", code: "1004" },
    });
    expect(minimaxFailure({ base_resp: { status_code: 1008, status_msg: "insufficient balance" } })?.error.type).toBe(
      "insufficient_quota",
    );
    expect(minimaxFailure({ base_resp: { status_code: 1002, status_msg: "rate limit" } })?.status).toBe(429);
    expect(minimaxFailure({ base_resp: { status_code: 0 } })).toBeUndefined();
    const converted = minimaxAdapter.convertResponse(
      ctx(35),
      Buffer.from(JSON.stringify({ base_resp: { status_code: 1004, status_msg: "login fail" } })),
    );
    expect(converted.failure?.status).toBe(401);
  });

  it("Cloudflare's envelope, Dify's {code,message}, Cohere's {message}, Ollama's {error}", () => {
    expect(
      parseCloudflareError(
        401,
        JSON.stringify({ success: false, errors: [{ code: 10000, message: "Authentication error" }] }),
      ),
    ).toEqual({ message: "Authentication error", type: "authentication_error", code: "10000" });
    expect(
      difyAdapter.parseError(400, JSON.stringify({ code: "invalid_param", message: "query is required", status: 400 })),
    ).toEqual({ message: "query is required", type: "upstream_error", code: "invalid_param" });
    expect(cohereAdapter.parseError(401, JSON.stringify({ message: "invalid api token" }))).toMatchObject({
      message: "invalid api token",
      type: "authentication_error",
    });
    expect(ollamaAdapter.parseError(404, JSON.stringify({ error: "model 'x' not found" }))).toMatchObject({
      message: "model 'x' not found",
    });
  });

  it("untrusted usage: a string count is read, a negative one is not believed", () => {
    const good = cohereAdapter.convertResponse(
      ctx(34),
      Buffer.from(JSON.stringify({ text: "hi", meta: { billed_units: { input_tokens: "5", output_tokens: 2 } } })),
    );
    expect(good.usage).toEqual({ prompt_tokens: 5, completion_tokens: 2 });
    const bad = ollamaAdapter.convertResponse(
      ctx(4),
      Buffer.from(JSON.stringify({ message: { content: "hi" }, done: true, prompt_eval_count: -3, eval_count: 1 })),
    );
    expect(bad.usage).toBeUndefined();
    expect(bad.usageNote?.usage_warning).toContain("prompt_eval_count");
  });
});
