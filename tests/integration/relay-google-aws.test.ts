import { exportPKCS8, generateKeyPair } from "jose";
import { countTokens } from "gpt-tokenizer";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startBedrockMock, type BedrockMock } from "../mocks/bedrock-upstream";
import { startGeminiMock, type GeminiMock } from "../mocks/gemini-upstream";
import { startPalmMock, type PalmMock } from "../mocks/palm-upstream";
import { startVertexMock, type VertexMock } from "../mocks/vertex-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * Gemini (24), Vertex AI (41, Gemini and Claude models) and AWS Claude (33) through the OpenAI
 * surface, each against a loopback mock speaking the provider's wire (keys checked, JWT and SigV4
 * verified, streams written in pieces that split events and binary messages). ModelRatio 1 and
 * CompletionRatio 2: quota = prompt + 2 × completion, from the provider's own usage.
 */
let root: ApiSession;
let gemini: GeminiMock;
let geminiDown: GeminiMock;
let vertex: VertexMock;
let vertexDown: VertexMock;
let bedrock: BedrockMock;
let bedrockDown: BedrockMock;
let palm: PalmMock;
let palmDown: PalmMock;
const aws = { accessKeyId: "AKIDGATEWAYTEST", secretAccessKey: "s3cr3t/k3y+example", region: "us-east-1" };
const clientEmail = "gateway@demo-project.iam.gserviceaccount.com";
let serviceAccount = "";

const goodChannels: Record<string, number> = {};
const models = {
  gemini: uniqueModel("gem"),
  vertexGemini: uniqueModel("vgem"),
  vertexClaude: uniqueModel("vcl"),
  bedrock: uniqueModel("brk"),
  palm: uniqueModel("palm"),
};

beforeAll(async () => {
  root = await loginRoot();
  const keys = await generateKeyPair("RS256", { extractable: true });
  [gemini, geminiDown, bedrock, bedrockDown] = await Promise.all([
    startGeminiMock("AIza-gw"),
    startGeminiMock("AIza-gw"),
    startBedrockMock(aws),
    startBedrockMock(aws),
  ]);
  [palm, palmDown] = await Promise.all([startPalmMock("AIza-palm"), startPalmMock("AIza-palm")]);
  palmDown.fault = { status: 503, message: "The service is currently unavailable.", code: "UNAVAILABLE" };
  vertex = await startVertexMock({ publicKey: keys.publicKey, clientEmail, projectId: "demo-project" });
  vertexDown = await startVertexMock({ publicKey: keys.publicKey, clientEmail, projectId: "demo-project" });
  geminiDown.fault = {
    status: 429,
    message: "Resource has been exhausted (e.g. check quota).",
    code: "RESOURCE_EXHAUSTED",
  };
  vertexDown.fault = { status: 500, message: "Internal error encountered.", code: "INTERNAL" };
  bedrockDown.fault = {
    status: 500,
    type: "InternalServerException",
    message: "The server encountered an internal error.",
  };
  const pem = await exportPKCS8(keys.privateKey);
  const account = (tokenUri: string) =>
    JSON.stringify({
      type: "service_account",
      project_id: "demo-project",
      private_key_id: "k1",
      private_key: pem,
      client_email: clientEmail,
      token_uri: tokenUri,
    });
  serviceAccount = account(vertex.tokenUri);
  const all = Object.values(models);
  await mergeOption(root, "ModelRatio", Object.fromEntries(all.map((m) => [m, 1])));
  await mergeOption(root, "CompletionRatio", Object.fromEntries(all.map((m) => [m, 2])));
  const vertexModels = `${models.vertexGemini},${models.vertexClaude}`;
  const vertexMapping = JSON.stringify({
    [models.vertexGemini]: "gemini-1.5-pro",
    [models.vertexClaude]: "claude-3-5-sonnet-20240620",
  });
  // The failing channel of each type sits on the higher priority tier: every call tries it first and fails over.
  await createChannel(root, {
    type: 24,
    key: "AIza-gw",
    base_url: geminiDown.url,
    models: models.gemini,
    model_mapping: JSON.stringify({ [models.gemini]: "gemini-2.0-flash" }),
    priority: 10,
  });
  goodChannels.gemini = await createChannel(root, {
    type: 24,
    key: "AIza-gw",
    base_url: gemini.url,
    models: models.gemini,
    model_mapping: JSON.stringify({ [models.gemini]: "gemini-2.0-flash" }),
    priority: 0,
  });
  await createChannel(root, {
    type: 41,
    key: account(vertexDown.tokenUri),
    base_url: vertexDown.url,
    models: vertexModels,
    model_mapping: vertexMapping,
    other: JSON.stringify({ default: "us-central1", "claude-3-5-sonnet-20240620": "europe-west1" }),
    priority: 10,
  });
  goodChannels.vertex = await createChannel(root, {
    type: 41,
    key: serviceAccount,
    base_url: vertex.url,
    models: vertexModels,
    model_mapping: vertexMapping,
    other: JSON.stringify({ default: "us-central1", "claude-3-5-sonnet-20240620": "europe-west1" }),
    priority: 0,
  });
  await createChannel(root, {
    type: 33,
    key: `${aws.accessKeyId}|${aws.secretAccessKey}|${aws.region}`,
    base_url: bedrockDown.url,
    models: models.bedrock,
    model_mapping: JSON.stringify({ [models.bedrock]: "claude-3-5-sonnet-20240620" }),
    priority: 10,
  });
  goodChannels.bedrock = await createChannel(root, {
    type: 33,
    key: `${aws.accessKeyId}|${aws.secretAccessKey}|${aws.region}`,
    base_url: bedrock.url,
    models: models.bedrock,
    model_mapping: JSON.stringify({ [models.bedrock]: "claude-3-5-sonnet-20240620" }),
    priority: 0,
  });
  await createChannel(root, { type: 11, key: "AIza-palm", base_url: palmDown.url, models: models.palm, priority: 10 });
  goodChannels.palm = await createChannel(root, {
    type: 11,
    key: "AIza-palm",
    base_url: palm.url,
    models: models.palm,
    priority: 0,
  });
});
afterAll(async () => {
  await Promise.all(
    [gemini, geminiDown, vertex, vertexDown, bedrock, bedrockDown, palm, palmDown].map((m) => m?.close()),
  );
});

async function streamText(client: OpenAI, model: string, extra: Record<string, unknown> = {}) {
  const stream = await client.chat.completions.create({
    model,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: "Why is the sky blue?" }],
    max_tokens: 100,
    ...extra,
  });
  let text = "";
  let finish = "";
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? "";
    if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, finish, usage };
}

/** The admin's log rows of a model (written after the reply: polled briefly). */
async function logsOf(model: string, count: number) {
  for (let i = 0; i < 40; i++) {
    const items = (await root.call("GET", `/api/log/?model_name=${model}&p=1&page_size=50`)).json.data.items as {
      channel: number;
      quota: number;
      prompt_tokens: number;
      completion_tokens: number;
      is_stream: boolean;
      type: number;
    }[];
    const consumed = items.filter((l) => l.type === 2);
    if (consumed.length >= count) return consumed;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${count} logs for ${model}`);
}

describe("Gemini (type 24)", () => {
  it("answers a chat through generateContent after failing over from a 429, billed from usageMetadata and logged", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.gemini,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Oslo?" },
      ],
      max_tokens: 100,
    });
    expect(reply.choices[0]?.message.content).toBe("Rain, 4°C in Oslo.");
    expect(reply.model).toBe(models.gemini);
    expect(reply.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 10 });
    expect(geminiDown.requests.length).toBeGreaterThan(0);
    const sent = gemini.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.0-flash:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe("AIza-gw");
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent.body)).toEqual({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }],
      generationConfig: { maxOutputTokens: 100 },
    });
    // 21 + 2 × (6 + 4 thinking) = 41
    expect((await quotaOf(user)).used_quota).toBe(41);
    const [log] = await logsOf(models.gemini, 1);
    expect(log).toMatchObject({ quota: 41, prompt_tokens: 21, completion_tokens: 10 });
  });

  it("streams (SSE split mid-event) with the usage chunk, billed 7 + 2 × 12 = 31", async () => {
    const { user, client } = await userWithToken(100_000);
    const { text, finish, usage } = await streamText(client, models.gemini);
    expect(text).toBe("The sky is blue because of Rayleigh scattering.");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 12, total_tokens: 19 });
    expect(gemini.requests.at(-1)!.path).toBe("/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse");
    expect((await quotaOf(user)).used_quota).toBe(31);
  });

  it("a safety block reaches the client as finish_reason content_filter", async () => {
    const { client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.gemini,
      messages: [{ role: "user", content: "a forbidden topic" }],
    });
    expect(reply.choices[0]?.finish_reason).toBe("content_filter");
  });

  it("a Gemini error reaches the client in OpenAI's shape with the upstream status when no channel is left", async () => {
    const { key } = await userWithToken(100_000);
    const model = uniqueModel("gemerr");
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { type: 24, key: "AIza-wrong", base_url: gemini.url, models: model });
    const reply = await fetch(`${baseUrl()}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(reply.status).toBe(400);
    const body = (await reply.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error.message).toContain("API key not valid");
    expect(body.error.code).toBe("INVALID_ARGUMENT");
  });
});

describe("embeddings", () => {
  it("Gemini: batchEmbedContents, the inputs counted (Gemini reports no usage); Vertex: :predict, billed from token_count", async () => {
    const { user, client } = await userWithToken(100_000);
    const fromGemini = await client.embeddings.create({ model: models.gemini, input: ["alpha", "beta"] });
    // The SDK asks for base64 (float32): compared at float32 precision.
    const rounded = (data: { embedding: number[] }[]) => data.map((d) => d.embedding.map((v) => Number(v.toFixed(6))));
    expect(rounded(fromGemini.data)).toEqual([
      [0.0123, -0.0456, 0.0789],
      [0.1, 0.2, -0.3],
    ]);
    expect(gemini.requests.at(-1)!.path).toBe("/v1beta/models/gemini-2.0-flash:batchEmbedContents");
    const counted = countTokens("alpha") + countTokens("beta");
    expect(fromGemini.usage.prompt_tokens).toBe(counted);
    expect((await quotaOf(user)).used_quota).toBe(counted);
    const fromVertex = await client.embeddings.create({ model: models.vertexGemini, input: ["alpha", "beta"] });
    expect(rounded(fromVertex.data)).toEqual([
      [0, 0.5, -0.5],
      [1, 0.5, -0.5],
    ]);
    expect(vertex.requests.at(-1)!.path).toBe(
      "/v1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-1.5-pro:predict",
    );
    expect((await quotaOf(user)).used_quota).toBe(counted + 3 + 4);
  });
});

describe("Vertex AI (type 41)", () => {
  it("Gemini models: service-account token, regional path, failover from a 500, billed and logged", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.vertexGemini,
      messages: [{ role: "user", content: "Weather in Oslo?" }],
    });
    expect(reply.choices[0]?.message.content).toBe("Rain, 4°C in Oslo.");
    expect(vertexDown.requests.length).toBeGreaterThan(0);
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(
      "/v1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-1.5-pro:generateContent",
    );
    expect(sent.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(vertex.refused).toEqual([]);
    expect((await quotaOf(user)).used_quota).toBe(41);
    const [log] = await logsOf(models.vertexGemini, 1);
    expect(log).toMatchObject({ quota: 41, prompt_tokens: 21, completion_tokens: 10 });
    const { text, usage } = await streamText(client, models.vertexGemini);
    expect(text).toBe("The sky is blue because of Rayleigh scattering.");
    expect(usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 12 });
    expect((await quotaOf(user)).used_quota).toBe(41 + 31);
  });

  it("a service account the token endpoint refuses (wrong private key) fails over and is not disabled", async () => {
    const model = uniqueModel("vbad");
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    const stranger = await generateKeyPair("RS256", { extractable: true });
    const forged = JSON.stringify({
      ...JSON.parse(serviceAccount),
      private_key: await exportPKCS8(stranger.privateKey),
    });
    const badId = await createChannel(root, {
      type: 41,
      key: forged,
      base_url: vertex.url,
      models: model,
      model_mapping: JSON.stringify({ [model]: "gemini-1.5-pro" }),
      priority: 10,
    });
    await createChannel(root, {
      type: 41,
      key: serviceAccount,
      base_url: vertex.url,
      models: model,
      model_mapping: JSON.stringify({ [model]: "gemini-1.5-pro" }),
      priority: 0,
    });
    const refused = vertex.refused.length;
    const { client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
    expect(reply.choices[0]?.message.content).toBe("Rain, 4°C in Oslo.");
    expect(vertex.refused.length).toBe(refused + 1);
    expect((await root.call("GET", `/api/channel/${badId}`)).json.data.status).toBe(1);
  });

  it("Claude models: rawPredict and streamRawPredict in the model's region, one token exchange for many calls", async () => {
    const { user, client } = await userWithToken(100_000);
    const exchanges = vertex.exchanges;
    const reply = await client.chat.completions.create({
      model: models.vertexClaude,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
      ],
      max_tokens: 100,
    });
    expect(reply.choices[0]?.message.content).toBe("It is 4°C with rain in Oslo.");
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(
      "/v1/projects/demo-project/locations/europe-west1/publishers/anthropic/models/claude-3-5-sonnet@20240620:rawPredict",
    );
    expect(JSON.parse(sent.body)).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }],
    });
    // 412 + 2 × 14 = 440
    expect((await quotaOf(user)).used_quota).toBe(440);
    const { text, finish, usage } = await streamText(client, models.vertexClaude);
    expect(vertex.requests.at(-1)!.path).toMatch(/:streamRawPredict$/);
    expect(text).toBe("Hello there.");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 5 });
    // + 14 + 2 × 5 = 24
    expect((await quotaOf(user)).used_quota).toBe(464);
    expect(vertex.exchanges - exchanges).toBe(0); // the token minted for the first test is still cached
    const logs = await logsOf(models.vertexClaude, 2);
    expect(logs.map((l) => l.quota).sort()).toEqual([24, 440]);
  });
});

describe("AWS Claude (type 33)", () => {
  it("InvokeModel signed with SigV4, failover from a 500, billed from the Anthropic usage and logged", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.bedrock,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
      ],
      max_tokens: 100,
    });
    expect(reply.choices[0]?.message.content).toBe("It is 4°C with rain in Oslo.");
    expect(bedrockDown.requests.length).toBeGreaterThan(0);
    expect(bedrock.refused).toEqual([]);
    const sent = bedrock.requests.at(-1)!;
    expect(sent.path).toBe("/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke");
    expect(sent.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDGATEWAYTEST\//);
    expect(JSON.parse(sent.body)).toEqual({
      anthropic_version: "bedrock-2023-05-31",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }],
    });
    expect((await quotaOf(user)).used_quota).toBe(440);
    const [log] = await logsOf(models.bedrock, 1);
    expect(log).toMatchObject({ quota: 440, prompt_tokens: 412, completion_tokens: 14 });
  });

  it("InvokeModelWithResponseStream: binary event-stream messages split across reads become OpenAI chunks, billed 24", async () => {
    const { user, client } = await userWithToken(100_000);
    const { text, finish, usage } = await streamText(client, models.bedrock);
    expect(bedrock.requests.at(-1)!.path).toBe(
      "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke-with-response-stream",
    );
    expect(bedrock.refused).toEqual([]);
    expect(text).toBe("Hello there.");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 5 });
    expect((await quotaOf(user)).used_quota).toBe(24);
  });

  it("an exception message mid-stream ends the client's stream with an error event", async () => {
    const { key } = await userWithToken(100_000);
    bedrock.streamException = { type: "modelStreamErrorException", message: "Model stream failed." };
    try {
      const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model: models.bedrock, stream: true, messages: [{ role: "user", content: "hi" }] }),
      });
      const body = await res.text();
      expect(body).toContain('"message":"Model stream failed."');
      // The error event ends the stream: a [DONE] after it would pass the reply off as whole.
      expect(body).not.toContain("[DONE]");
      expect(body.endsWith("}}\n\n")).toBe(true);
    } finally {
      bedrock.streamException = undefined;
    }
  });
});

describe("PaLM 2 (type 11)", () => {
  const answer = "Rayleigh scattering makes the sky look blue.";

  it("generateMessage after failing over from a 503; PaLM reports no usage, so the reply is counted, billed and logged", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.palm,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Why is the sky blue?" },
      ],
    });
    expect(reply.choices[0]?.message.content).toBe(answer);
    expect(palmDown.requests.length).toBeGreaterThan(0);
    const sent = palm.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta2/models/chat-bison-001:generateMessage");
    expect(JSON.parse(sent.body)).toEqual({
      prompt: { context: "Be brief.", messages: [{ author: "0", content: "Why is the sky blue?" }] },
    });
    const [log] = await logsOf(models.palm, 1);
    expect(log!.completion_tokens).toBe(countTokens(answer));
    expect(log!.prompt_tokens).toBeGreaterThan(0);
    expect(log!.quota).toBe(log!.prompt_tokens + 2 * log!.completion_tokens);
    expect((await quotaOf(user)).used_quota).toBe(log!.quota);
  });

  it("a streamed request gets the whole reply (read in pieces) as one delta, then [DONE]", async () => {
    const { user, client } = await userWithToken(100_000);
    const { text, finish, usage } = await streamText(client, models.palm);
    expect(text).toBe(answer);
    expect(finish).toBe("stop");
    expect(usage?.completion_tokens).toBe(countTokens(answer));
    expect((await quotaOf(user)).used_quota).toBe(usage!.prompt_tokens + 2 * usage!.completion_tokens);
  });
});

describe("channel test button", () => {
  it("passes for a working channel of each type (a one-token chat through its adapter)", async () => {
    for (const [name, id] of Object.entries(goodChannels)) {
      const res = await root.call("GET", `/api/channel/test/${id}`);
      expect({ name, success: res.json.success, message: res.json.message }).toEqual({
        name,
        success: true,
        message: "",
      });
    }
  });
});
