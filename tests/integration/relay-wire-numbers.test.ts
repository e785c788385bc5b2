import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startAnthropicMock, type AnthropicMock } from "../mocks/anthropic-upstream";
import { startGeminiNativeMock, type GeminiNativeMock } from "../mocks/gemini-native-mock";
import { startMinimaxMock } from "../mocks/minimax-upstream";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import type { ProviderMock } from "../mocks/provider-mock";
import { createChannel, mergeOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * What the client wrote reaches the upstream as written: numbers a double cannot hold (an int64
 * seed, a 20-digit integer), the spelling of a number (`1.0`, `0.10`, `2e3`) and fields the
 * gateway does not know. Where the gateway must change a field (the mapped model, the usage it
 * asks a stream for), only that field differs.
 */
const NUMBERS = `"seed":9223372036854775807,"big":12345678901234567890,"temperature":1.0,"top_p":0.10,"x_vendor":{"a":[1.50,2e3]}`;
const MESSAGES = `"messages":[{"role":"user","content":"Say \\"hi\\" {not a brace}"}]`;
const ASKED_USAGE = /"stream_options":\{"include_usage":true\},|,"stream_options":\{"include_usage":true\}/;

let root: ApiSession;
let openai: MockUpstream;
let claude: AnthropicMock;
let gemini: GeminiNativeMock;
let minimax: ProviderMock;
let key = "";
const gptModel = uniqueModel("gpt-wire");
const mappedModel = uniqueModel("gpt-wire-mapped");
const claudeModel = uniqueModel("claude-wire");
const geminiModel = uniqueModel("gemini-wire");
const minimaxModel = uniqueModel("mm-wire");

beforeAll(async () => {
  root = await loginRoot();
  openai = await startOpenAiMock({ apiKey: "sk-upstream" });
  claude = await startAnthropicMock("sk-ant-wire");
  gemini = await startGeminiNativeMock("g-wire");
  minimax = await startMinimaxMock("mm-wire");
  const models = [gptModel, mappedModel, claudeModel, geminiModel, minimaxModel];
  await mergeOption(root, "ModelRatio", Object.fromEntries(models.map((m) => [m, 1])));
  await mergeOption(root, "CompletionRatio", Object.fromEntries(models.map((m) => [m, 1])));
  await createChannel(root, { type: 1, key: "sk-upstream", base_url: openai.url, models: gptModel });
  await createChannel(root, {
    type: 1,
    key: "sk-upstream",
    base_url: openai.url,
    models: mappedModel,
    model_mapping: JSON.stringify({ [mappedModel]: "gpt-4o-upstream" }),
  });
  await createChannel(root, {
    type: 14,
    key: "sk-ant-wire",
    base_url: claude.url,
    models: claudeModel,
    model_mapping: JSON.stringify({ [claudeModel]: "claude-3-5-sonnet-20241022" }),
  });
  await createChannel(root, {
    type: 24,
    key: "g-wire",
    base_url: gemini.url,
    models: geminiModel,
    model_mapping: JSON.stringify({ [geminiModel]: "gemini-2.0-flash" }),
  });
  await createChannel(root, {
    type: 35,
    key: "mm-wire",
    base_url: minimax.url,
    models: minimaxModel,
    model_mapping: JSON.stringify({ [minimaxModel]: "abab6.5s-chat" }),
  });
  key = (await userWithToken(1_000_000)).key;
}, 60_000);

afterAll(async () => {
  await openai?.close();
  await claude?.close();
  await gemini?.close();
  await minimax?.close();
});

/** Posts the client's exact bytes and reads the whole reply (a stream to its end). */
async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
    body,
  });
  await res.text();
  return res.status;
}

describe("OpenAI chat completions", () => {
  it("sends a non-stream body as it came", async () => {
    const body = `{"model":"${gptModel}",${MESSAGES},${NUMBERS}}`;
    expect(await post("/v1/chat/completions", body)).toBe(200);
    expect(openai.requests.at(-1)!.body).toBe(body);
  });

  it("sends a stream that already asks for usage as it came, unknown stream_options included", async () => {
    const body = `{"model":"${gptModel}","stream":true,"stream_options":{"include_usage":true, "x_unknown":1},${MESSAGES},${NUMBERS}}`;
    expect(await post("/v1/chat/completions", body)).toBe(200);
    expect(openai.requests.at(-1)!.body).toBe(body);
  });

  it("adds only the usage request to a stream that has no stream_options", async () => {
    const body = `{"model":"${gptModel}","stream":true,${MESSAGES},${NUMBERS}}`;
    expect(await post("/v1/chat/completions", body)).toBe(200);
    const sent = openai.requests.at(-1)!.body;
    expect(sent).toMatch(ASKED_USAGE);
    expect(sent.replace(ASKED_USAGE, "")).toBe(body);
  });

  it("turns include_usage on in the client's stream_options, keeping its other fields byte for byte", async () => {
    const body = `{"model":"${gptModel}","stream":true,"stream_options": {"x_unknown":1.0, "include_usage" : false},${MESSAGES},${NUMBERS}}`;
    expect(await post("/v1/chat/completions", body)).toBe(200);
    expect(openai.requests.at(-1)!.body).toBe(body.replace(`"include_usage" : false`, `"include_usage" : true`));
  });

  it("changes only the model on a channel with a model mapping", async () => {
    const body = `{${MESSAGES}, "model" : "${mappedModel}" ,${NUMBERS}}`;
    expect(await post("/v1/chat/completions", body)).toBe(200);
    expect(openai.requests.at(-1)!.body).toBe(body.replace(`"${mappedModel}"`, `"gpt-4o-upstream"`));
  });

  it("an embeddings call under /v1/engines/{model}: the path's model is added, the rest as sent", async () => {
    const body = `{"input":"hello","dimensions":256,${NUMBERS}}`;
    expect(await post(`/v1/engines/${gptModel}/embeddings`, body)).toBe(200);
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe("/v1/embeddings");
    expect(sent.body).toBe(`{"model":"${gptModel}",${body.slice(1)}`);
  });

  it("MiniMax, which speaks the OpenAI body: only the mapped model changes", async () => {
    const body = `{"model":"${minimaxModel}",${MESSAGES},${NUMBERS}}`;
    expect(await post("/v1/chat/completions", body)).toBe(200);
    expect(minimax.requests.at(-1)!.body).toBe(body.replace(`"${minimaxModel}"`, `"abab6.5s-chat"`));
  });
});

describe("native pass-through", () => {
  it("Responses: the client's body as it came", async () => {
    const body = `{"model":"${gptModel}","input":"Say \\"hi\\"",${NUMBERS}}`;
    expect(await post("/v1/responses", body)).toBe(200);
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe("/v1/responses");
    expect(sent.body).toBe(body);
  });

  it("Anthropic Messages: only the mapped model changes", async () => {
    const body = `{"model": "${claudeModel}","max_tokens":100,${MESSAGES},${NUMBERS}}`;
    expect(await post("/v1/messages", body, { "anthropic-version": "2023-06-01" })).toBe(200);
    expect(claude.requests.at(-1)!.body).toBe(body.replace(`"${claudeModel}"`, `"claude-3-5-sonnet-20241022"`));
  });

  it("Gemini generateContent: the model changes in the URL, the body goes as it came", async () => {
    const body = `{"contents":[{"role":"user","parts":[{"text":"Say \\"hi\\""}]}],"generationConfig":{"temperature":1.0,"topP":0.10,"seed":9223372036854775807},"x_big":12345678901234567890,"x_vendor":{"a":[1.50,2e3]}}`;
    expect(await post(`/v1beta/models/${geminiModel}:generateContent`, body)).toBe(200);
    const sent = gemini.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.0-flash:generateContent");
    expect(sent.body).toBe(body);
  });
});

describe("a key the client repeats", () => {
  it("reaches the upstream once, as the gateway read and billed it (the last), whatever the upstream's parser keeps", async () => {
    const body = `{"model":"${gptModel}","max_tokens":100000,${MESSAGES},"max_tokens" : 5,${NUMBERS}}`;
    expect(await post("/v1/chat/completions", body)).toBe(200);
    expect(openai.requests.at(-1)!.body).toBe(`{"model":"${gptModel}",${MESSAGES},"max_tokens" : 5,${NUMBERS}}`);
  });

  it("an Anthropic Messages body too", async () => {
    const body = `{"model":"${claudeModel}","max_tokens":100000,${MESSAGES},"max_tokens":5,${NUMBERS}}`;
    expect(await post("/v1/messages", body, { "anthropic-version": "2023-06-01" })).toBe(200);
    expect(claude.requests.at(-1)!.body).toBe(
      `{"model":"claude-3-5-sonnet-20241022",${MESSAGES},"max_tokens":5,${NUMBERS}}`,
    );
  });
});
