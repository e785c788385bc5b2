import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startAnthropicMock, type AnthropicMock } from "../mocks/anthropic-upstream";
import { startGeminiMock, type GeminiMock } from "../mocks/gemini-upstream";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * What crosses the gateway besides the bodies, read by the official SDKs: the upstream's
 * informative reply headers (request id, timings, rate limits, retry-after), the client's
 * request-describing headers, and an upstream's error in its own words (decision 034).
 */
let root: ApiSession;
let upstream: MockUpstream;
let refusing: MockUpstream;
let refusingAlone: MockUpstream;
let serving: MockUpstream;
let claude: AnthropicMock;
let gemini: GeminiMock;
let key = "";
const model = uniqueModel("wire");
const failoverModel = uniqueModel("wire-failover");
const refusedModel = uniqueModel("wire-refused");
const claudeModel = uniqueModel("wire-claude");
const geminiModel = uniqueModel("wire-gemini");

const INFORMATIVE = {
  "x-request-id": "req_abc",
  "openai-processing-ms": "42",
  "x-ratelimit-remaining-requests": "99",
  "x-ratelimit-reset-requests": "6ms",
};
const PRIVATE = { "set-cookie": "__cf_bm=secret; Path=/", "x-upstream-internal": "node-7" };

function client(options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) {
  return new OpenAI({ apiKey: key, baseURL: `${baseUrl()}/v1`, maxRetries: 0, timeout: 20_000, ...options });
}

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock({ apiKey: "sk-upstream" });
  refusing = await startOpenAiMock({ apiKey: "sk-the-right-one" });
  refusingAlone = await startOpenAiMock({ apiKey: "sk-the-right-one" });
  serving = await startOpenAiMock({ apiKey: "sk-upstream" });
  claude = await startAnthropicMock("sk-ant-wire");
  gemini = await startGeminiMock("g-wire");
  await mergeOption(root, "ModelRatio", {
    [model]: 1,
    [failoverModel]: 1,
    [refusedModel]: 1,
    [claudeModel]: 1,
    [geminiModel]: 1,
  });
  await createChannel(root, { type: 1, key: "sk-upstream", base_url: upstream.url, models: model });
  // The refusing channel is tried first (higher priority) with a key its upstream does not take.
  await createChannel(root, { type: 1, key: "sk-wrong", base_url: refusing.url, models: failoverModel, priority: 10 });
  await createChannel(root, { type: 1, key: "sk-wrong", base_url: refusingAlone.url, models: refusedModel });
  await createChannel(root, { type: 1, key: "sk-upstream", base_url: serving.url, models: failoverModel });
  await createChannel(root, { type: 14, key: "sk-ant-wire", base_url: claude.url, models: claudeModel });
  await createChannel(root, { type: 24, key: "g-wire", base_url: gemini.url, models: geminiModel });
  ({ key } = await userWithToken(10_000_000));
}, 60_000);

afterAll(async () => {
  for (const mock of [upstream, refusing, refusingAlone, serving, claude, gemini]) await mock?.close();
});

const ask = { model, messages: [{ role: "user" as const, content: "hi" }] };

describe("upstream reply headers reach the client", () => {
  it("a whole reply carries the upstream's request id, timings and rate limits, and none of its cookies", async () => {
    upstream.fault = undefined;
    upstream.replyHeaders = { ...INFORMATIVE, ...PRIVATE };
    const { data, response, request_id } = await client()
      .chat.completions.create({ ...ask })
      .withResponse();
    expect(request_id).toBe("req_abc");
    expect((data as { _request_id?: string | null })._request_id).toBe("req_abc");
    expect(response.headers.get("openai-processing-ms")).toBe("42");
    expect(response.headers.get("x-ratelimit-remaining-requests")).toBe("99");
    expect(response.headers.get("x-ratelimit-reset-requests")).toBe("6ms");
    expect(response.headers.get("x-oneapi-request-id")).toMatch(/^\d{14}[0-9a-f]{12}$/);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("x-upstream-internal")).toBeNull();
  });

  it("a stream carries them too", async () => {
    upstream.fault = undefined;
    upstream.replyHeaders = { ...INFORMATIVE, ...PRIVATE };
    const { data: stream, response } = await client()
      .chat.completions.create({ ...ask, stream: true })
      .withResponse();
    for await (const _chunk of stream) void _chunk;
    expect(response.headers.get("x-request-id")).toBe("req_abc");
    expect(response.headers.get("x-ratelimit-remaining-requests")).toBe("99");
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("an Anthropic pass-through carries Anthropic's request-id and rate limits", async () => {
    claude.replyHeaders = { "request-id": "req_ant_123", "anthropic-ratelimit-requests-remaining": "49", ...PRIVATE };
    const anthropic = new Anthropic({ apiKey: key, baseURL: baseUrl(), maxRetries: 0 });
    const { data, response, request_id } = await anthropic.messages
      .create({ model: claudeModel, max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    expect(request_id).toBe("req_ant_123");
    expect((data as { _request_id?: string | null })._request_id).toBe("req_ant_123");
    expect(response.headers.get("anthropic-ratelimit-requests-remaining")).toBe("49");
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

describe("client request headers reach the upstream", () => {
  it("OpenAI-Beta and Idempotency-Key go up; the caller's organization and project do not", async () => {
    upstream.fault = undefined;
    upstream.replyHeaders = undefined;
    const before = upstream.requests.length;
    await client({ organization: "org-caller", project: "proj-caller" }).chat.completions.create(
      { ...ask },
      { headers: { "OpenAI-Beta": "assistants=v2", "Idempotency-Key": "idem-42" } },
    );
    const sent = upstream.requests.slice(before).at(-1)!;
    expect(sent.headers["openai-beta"]).toBe("assistants=v2");
    expect(sent.headers["idempotency-key"]).toBe("idem-42");
    expect(sent.headers["openai-organization"]).toBeUndefined();
    expect(sent.headers["openai-project"]).toBeUndefined();
    expect(sent.headers.authorization).toBe("Bearer sk-upstream");
  });
});

describe("the Responses surface carries them too", () => {
  it("its request headers go up, the upstream's request id and rate limits come back", async () => {
    upstream.fault = undefined;
    upstream.replyHeaders = { ...INFORMATIVE, ...PRIVATE };
    const before = upstream.requests.length;
    const { response, request_id } = await client({ organization: "org-caller" })
      .responses.create(
        { model, input: "hi" },
        { headers: { "OpenAI-Beta": "responses=v1", "Idempotency-Key": "idem-r" } },
      )
      .withResponse();
    expect(request_id).toBe("req_abc");
    expect(response.headers.get("x-ratelimit-remaining-requests")).toBe("99");
    expect(response.headers.get("set-cookie")).toBeNull();
    const sent = upstream.requests.slice(before).at(-1)!;
    expect(sent.path).toContain("/responses");
    expect(sent.headers["openai-beta"]).toBe("responses=v1");
    expect(sent.headers["idempotency-key"]).toBe("idem-r");
    expect(sent.headers["openai-organization"]).toBeUndefined();
  });
});

describe("upstream errors keep their words", () => {
  it("a 400 keeps the upstream's message, type, code and param, and its request id", async () => {
    upstream.replyHeaders = { "x-request-id": "req_bad", ...PRIVATE };
    const message = "Unsupported value: 'temperature' does not support 0.5 with this model.";
    upstream.fault = {
      kind: "status",
      status: 400,
      body: { error: { message, type: "invalid_request_error", param: "temperature", code: "unsupported_value" } },
    };
    const error = (await client()
      .chat.completions.create({ ...ask, temperature: 0.5 })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.error).toEqual({
      message,
      type: "invalid_request_error",
      param: "temperature",
      code: "unsupported_value",
    });
    expect(error.param).toBe("temperature");
    expect(error.code).toBe("unsupported_value");
    expect(error.type).toBe("invalid_request_error");
    expect(error.requestID).toBe("req_bad");
    expect(error.headers?.get("x-oneapi-request-id")).toMatch(/^\d{14}[0-9a-f]{12}$/);
    expect(error.headers?.get("set-cookie")).toBeNull();
  });

  it("a 429 keeps the upstream's message, and the SDK waits as long as its retry-after asks", async () => {
    upstream.replyHeaders = { "x-request-id": "req_busy", "x-ratelimit-remaining-requests": "0" };
    const message = "Rate limit reached for requests per min. Please try again in 1s.";
    upstream.fault = {
      kind: "status",
      status: 429,
      body: { error: { message, type: "requests", param: null, code: "rate_limit_exceeded" } },
      headers: { "retry-after": "1" },
    };
    const before = upstream.requests.length;
    const error = (await client({ maxRetries: 1 })
      .chat.completions.create({ ...ask })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.message).toBe(`429 ${message}`);
    expect(error.code).toBe("rate_limit_exceeded");
    expect(error.requestID).toBe("req_busy");
    expect(error.headers?.get("retry-after")).toBe("1");
    const tries = upstream.requests.slice(before);
    expect(tries).toHaveLength(2);
    expect(tries[1]!.at! - tries[0]!.at!).toBeGreaterThanOrEqual(950);
  });
});

describe("an Anthropic pass-through's error keeps its words", () => {
  it("the upstream's message, its request-id and its retry-after reach the Anthropic SDK", async () => {
    claude.replyHeaders = { "request-id": "req_ant_busy", "retry-after": "1", ...PRIVATE };
    claude.failWith = 429;
    try {
      const anthropic = new Anthropic({ apiKey: key, baseURL: baseUrl(), maxRetries: 0 });
      const error = (await anthropic.messages
        .create({ model: claudeModel, max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
        .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(error).toBeInstanceOf(Anthropic.RateLimitError);
      expect(error.requestID).toBe("req_ant_busy");
      expect(error.error).toMatchObject({
        type: "error",
        error: { type: "rate_limit_error", message: "mock failure" },
      });
      expect(error.headers?.get("retry-after")).toBe("1");
      expect(error.headers?.get("set-cookie")).toBeNull();
    } finally {
      claude.failWith = undefined;
    }
  });
});

describe("an upstream refusing the channel's own key", () => {
  it("is another channel's turn: the next one serves", async () => {
    const reply = await client().chat.completions.create({ ...ask, model: failoverModel });
    expect(reply.choices[0]?.message.content).toBeTruthy();
    expect(refusing.requests).toHaveLength(1);
    expect(serving.requests).toHaveLength(1);
  });

  it("with no channel left is the gateway's failure, not the caller's key", async () => {
    const error = (await client()
      .chat.completions.create({ ...ask, model: refusedModel })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).not.toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.status).toBe(502);
    expect(error.type).toBe("upstream_error");
    expect(error.code).toBe("channel_credentials_refused");
    // The upstream's words about the channel's key are not the caller's to read.
    expect(error.message).not.toContain("Incorrect API key");
    expect(refusingAlone.requests).toHaveLength(1);
  });
});

describe("a Gemini pass-through through Google's SDK", () => {
  const genai = () =>
    new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: baseUrl(), retryOptions: { attempts: 1 } } });

  it("shows the gateway's request id on the reply", async () => {
    gemini.fault = undefined;
    const reply = await genai().models.generateContent({ model: geminiModel, contents: "hi" });
    expect(reply.sdkHttpResponse?.headers?.["x-oneapi-request-id"]).toMatch(/^\d{14}[0-9a-f]{12}$/);
  });

  it("an upstream error keeps Google's status and words", async () => {
    const message = "Resource has been exhausted (e.g. check quota).";
    gemini.fault = { status: 429, message, code: "RESOURCE_EXHAUSTED" };
    try {
      const error = (await genai()
        .models.generateContent({ model: geminiModel, contents: "hi" })
        .catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(429);
      expect(error.message).toContain(message);
      expect(error.message).toContain("RESOURCE_EXHAUSTED");
      expect(error.message).not.toContain("request id");
    } finally {
      gemini.fault = undefined;
    }
  });
});

describe("a browser app on another origin", () => {
  const fromPage = { Origin: "https://chat.example", Authorization: "", "Content-Type": "application/json" };

  it("may read the request id, rate limits and retry-after of a reply and of an error", async () => {
    upstream.fault = undefined;
    upstream.replyHeaders = { ...INFORMATIVE, ...PRIVATE };
    const ok = await fetch(`${baseUrl()}/v1/chat/completions`, {
      method: "POST",
      headers: { ...fromPage, Authorization: `Bearer ${key}` },
      body: JSON.stringify(ask),
    });
    await ok.text();
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = (ok.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining([
        "x-request-id",
        "x-ratelimit-remaining-requests",
        "openai-processing-ms",
        "x-oneapi-request-id",
      ]),
    );
    expect(exposed).not.toContain("content-type");

    upstream.fault = {
      kind: "status",
      status: 429,
      body: { error: { message: "slow down", type: "requests", param: null, code: "rate_limit_exceeded" } },
      headers: { "retry-after": "1" },
    };
    try {
      const busy = await fetch(`${baseUrl()}/v1/chat/completions`, {
        method: "POST",
        headers: { ...fromPage, Authorization: `Bearer ${key}` },
        body: JSON.stringify(ask),
      });
      await busy.text();
      expect(busy.status).toBe(429);
      expect((busy.headers.get("access-control-expose-headers") ?? "").toLowerCase()).toContain("retry-after");
    } finally {
      upstream.fault = undefined;
    }
  });
});
