import OpenAI from "openai";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { billingWritten, loginRoot, request, type ApiSession } from "../support/api";
import { startCloudflareMock } from "../mocks/cloudflare-upstream";
import { startCohereMock } from "../mocks/cohere-upstream";
import { startDifyMock } from "../mocks/dify-upstream";
import { startJinaMock } from "../mocks/jina-upstream";
import { startMinimaxMock } from "../mocks/minimax-upstream";
import { startOllamaNativeMock } from "../mocks/ollama-native-upstream";
import { bearerIs, sendJson, startProviderMock, type ProviderMock } from "../mocks/provider-mock";
import { createChannel, mergeOption, quotaOf, setOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * Cohere, Dify, Ollama (native), MiniMax, Cloudflare Workers AI, Jina, SiliconCloud and the
 * OpenAI-wire types at their own paths, each through the gateway with the openai client against
 * a mock speaking the provider's wire. Every chat model is served by two channels: one with a
 * bad key at a higher priority (its failure, in the provider's error shape, must fail over) and a
 * good one — so each call below also proves failover.
 */
const databaseUrl = inject("databaseUrl");
let root: ApiSession;
const mocks: ProviderMock[] = [];
const models = {
  cohere: uniqueModel("cohere"),
  dify: uniqueModel("dify"),
  ollama: uniqueModel("ollama"),
  minimax: uniqueModel("mm"),
  cloudflare: uniqueModel("cf"),
};
const soloBad = {
  cohere: uniqueModel("cohere-bad"),
  minimax: uniqueModel("mm-bad"),
  dify: uniqueModel("dify-bad"),
  cloudflare: uniqueModel("cf-bad"),
};
const embed = { jina: uniqueModel("jina-e"), ollama: uniqueModel("ollama-e"), cloudflare: uniqueModel("cf-e") };
const rerank = { jina: uniqueModel("jina-r"), cohere: uniqueModel("cohere-r"), silicon: uniqueModel("sf-r") };
let cohere: ProviderMock,
  dify: ProviderMock,
  ollama: ProviderMock,
  minimax: ProviderMock,
  cloudflare: ProviderMock,
  jina: ProviderMock,
  silicon: ProviderMock,
  paths: ProviderMock;

async function pair(type: number, url: string, good: string, model: string, extra: Record<string, unknown> = {}) {
  await createChannel(root, { type, key: "wrong-key", base_url: url, models: model, priority: 10, ...extra });
  await createChannel(root, { type, key: good, base_url: url, models: model, priority: 0, ...extra });
}

beforeAll(async () => {
  root = await loginRoot();
  await setOption(root, "RetryTimes", "3");
  await setOption(root, "AutomaticDisableChannelEnabled", "false");
  cohere = await startCohereMock("co-key");
  dify = await startDifyMock("app-key");
  ollama = await startOllamaNativeMock();
  minimax = await startMinimaxMock("mm-key");
  cloudflare = await startCloudflareMock("cf-token", "acc123");
  jina = await startJinaMock("jina_key");
  silicon = await startProviderMock({
    authorized: bearerIs("sf-key"),
    unauthorized: { status: 401, body: { code: 20003, message: "Invalid token", data: null } },
    route: (req, res) =>
      sendJson(res, 200, {
        id: "sf-1",
        results: (req.json.documents as string[]).map((_t, index) => ({ index, relevance_score: 0.5 - index / 10 })),
        tokens: { input_tokens: 21, output_tokens: 0 },
      }),
  });
  // Answers any path with an OpenAI chat completion, to check where OpenAI-wire types are sent.
  paths = await startProviderMock({
    authorized: () => true,
    unauthorized: { status: 401, body: {} },
    route: (req, res) =>
      sendJson(res, 200, {
        id: "c1",
        object: "chat.completion",
        created: 1,
        model: req.json.model,
        choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
      }),
  });
  mocks.push(cohere, dify, ollama, minimax, cloudflare, jina, silicon, paths);
  const all = [...Object.values(models), ...Object.values(soloBad), ...Object.values(embed), ...Object.values(rerank)];
  await mergeOption(root, "ModelRatio", Object.fromEntries(all.map((m) => [m, 1])));
  await mergeOption(root, "CompletionRatio", Object.fromEntries(all.map((m) => [m, 1])));
  await pair(34, cohere.url, "co-key", models.cohere);
  await pair(37, dify.url, "app-key", models.dify);
  await pair(35, minimax.url, "mm-key", models.minimax);
  await pair(39, cloudflare.url, "cf-token", `${models.cloudflare},${embed.cloudflare}`, {
    other: "acc123",
    model_mapping: JSON.stringify({ [models.cloudflare]: "@cf/meta/llama-3.1-8b-instruct" }),
  });
  // Ollama checks no key: the failing channel is one whose model the server does not have.
  await createChannel(root, {
    type: 4,
    key: "x",
    base_url: ollama.url,
    models: models.ollama,
    priority: 10,
    model_mapping: JSON.stringify({ [models.ollama]: "missing" }),
  });
  await createChannel(root, {
    type: 4,
    key: "x",
    base_url: ollama.url,
    models: `${models.ollama},${embed.ollama}`,
    model_mapping: JSON.stringify({ [models.ollama]: "llama3.2", [embed.ollama]: "nomic-embed-text" }),
  });
  await createChannel(root, { type: 34, key: "wrong", base_url: cohere.url, models: soloBad.cohere });
  await createChannel(root, { type: 35, key: "wrong", base_url: minimax.url, models: soloBad.minimax });
  await createChannel(root, { type: 37, key: "wrong", base_url: dify.url, models: soloBad.dify });
  await createChannel(root, {
    type: 39,
    key: "wrong",
    base_url: cloudflare.url,
    models: soloBad.cloudflare,
    other: "acc123",
  });
  await pair(38, jina.url, "jina_key", `${embed.jina},${rerank.jina}`);
  await createChannel(root, { type: 34, key: "co-key", base_url: cohere.url, models: rerank.cohere });
  await createChannel(root, { type: 40, key: "sf-key", base_url: silicon.url, models: rerank.silicon });
});
afterAll(async () => {
  await setOption(root, "AutomaticDisableChannelEnabled", "false");
  await Promise.all(mocks.map((m) => m.close()));
});

const lastTo = (mock: ProviderMock, path: string) => mock.requests.filter((r) => r.path === path).at(-1)!;

async function streamText(client: OpenAI, model: string) {
  const stream = await client.chat.completions.create({
    model,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: "Hej" }],
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

async function lastLog(user: ApiSession, model: string) {
  await billingWritten();
  return (await user.call("GET", `/api/log/self?model_name=${model}`)).json.data.items[0];
}

describe("Cohere (34)", () => {
  it("converts chat to /v1/chat (message, chat_history, preamble), bills billed_units, fails over from a bad key", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.cohere,
      max_tokens: 50,
      temperature: 0.3,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        { role: "user", content: "Weather?" },
      ],
    });
    expect(reply.choices[0]?.message.content).toBe("Hej från Cohere");
    expect(reply.usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 6 });
    const calls = cohere.requests.filter((r) => r.path === "/v1/chat").slice(-2);
    expect(calls.map((c) => c.headers.authorization)).toEqual(["Bearer wrong-key", "Bearer co-key"]);
    expect(JSON.parse(calls[1]!.body)).toEqual({
      model: models.cohere,
      message: "Weather?",
      preamble: "Be brief.",
      chat_history: [
        { role: "USER", message: "Hi" },
        { role: "CHATBOT", message: "Hello" },
      ],
      max_tokens: 50,
      temperature: 0.3,
    });
    expect((await quotaOf(user)).used_quota).toBe(23);
    expect(await lastLog(user, models.cohere)).toMatchObject({
      prompt_tokens: 17,
      completion_tokens: 6,
      quota: 23,
      is_stream: false,
    });
  });

  it("streams NDJSON events as OpenAI chunks, billed from stream-end", async () => {
    const { user, client } = await userWithToken(100_000);
    const { text, finish, usage } = await streamText(client, models.cohere);
    expect(text).toBe("Hej från Cohere");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 6 });
    expect(JSON.parse(lastTo(cohere, "/v1/chat").body)).toMatchObject({ stream: true, message: "Hej" });
    expect(await lastLog(user, models.cohere)).toMatchObject({ quota: 23, is_stream: true });
  });

  it("reranks at /v1/rerank in the gateway's shape", async () => {
    const { key } = await userWithToken(100_000);
    const res = await request(
      "POST",
      "/v1/rerank",
      { model: rerank.cohere, query: "fjord", documents: ["Oslo fjord", "desert"], top_n: 2 },
      { Authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(200);
    expect(res.json.results).toEqual([
      { index: 0, relevance_score: 0.9 },
      { index: 1, relevance_score: 0.6 },
    ]);
    expect(res.json.usage.total_tokens).toBeGreaterThan(0);
    expect(JSON.parse(lastTo(cohere, "/v1/rerank").body)).toEqual({
      model: rerank.cohere,
      query: "fjord",
      documents: ["Oslo fjord", "desert"],
      top_n: 2,
    });
  });

  it("a bad key alone is the gateway's 502 (the channel's key was refused, not the caller's)", async () => {
    const { client } = await userWithToken(100_000);
    const error = await client.chat.completions
      .create({ model: soloBad.cohere, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("channel_credentials_refused");
  });
});

describe("Dify (37)", () => {
  it("sends the last user message as query in blocking mode and bills metadata.usage", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.dify,
      user: "alice",
      messages: [
        { role: "system", content: "ignored by Dify" },
        { role: "user", content: "Vad heter du?" },
      ],
    });
    expect(reply.choices[0]?.message.content).toBe("Dify svarar");
    expect(JSON.parse(lastTo(dify, "/v1/chat-messages").body)).toEqual({
      inputs: {},
      query: "Vad heter du?",
      response_mode: "blocking",
      user: "alice",
    });
    expect((await quotaOf(user)).used_quota).toBe(40);
  });

  it("streams message and agent_message text; message_end bills", async () => {
    const { user, client } = await userWithToken(100_000);
    const { text, usage } = await streamText(client, models.dify);
    expect(text).toBe("Dify svarar");
    expect(usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 9 });
    expect(JSON.parse(lastTo(dify, "/v1/chat-messages").body)).toMatchObject({
      response_mode: "streaming",
      query: "Hej",
      user: "switchyard",
    });
    expect(await lastLog(user, models.dify)).toMatchObject({ quota: 40, is_stream: true });
  });

  it("an error event mid-stream reaches the client as an OpenAI error", async () => {
    const { key } = await userWithToken(100_000);
    const res = await fetch(`${inject("baseUrl")}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: models.dify, stream: true, messages: [{ role: "user", content: "boom" }] }),
    });
    const body = await res.text();
    expect(body).toContain("Par");
    expect(body).toContain('"message":"Model quota exceeded"');
    // The error event ends the stream: a [DONE] after it would pass the reply off as whole.
    expect(body).not.toContain("[DONE]");
    expect(body.endsWith("}}\n\n")).toBe(true);
  });

  it("a bad app key is the gateway's 502 (the channel's key was refused, not the caller's)", async () => {
    const { client } = await userWithToken(100_000);
    const error = (await client.chat.completions
      .create({ model: soloBad.dify, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.code).toBe("channel_credentials_refused");
  });
});

describe("Ollama (4) native API", () => {
  it("calls /api/chat with options and bills prompt_eval_count + eval_count; a 404 model fails over", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.ollama,
      max_tokens: 64,
      temperature: 0.1,
      stop: "\n\n",
      messages: [{ role: "user", content: "Hej" }],
    });
    expect(reply.choices[0]?.message.content).toBe("Hallå där!");
    const chats = ollama.requests.filter((r) => r.path === "/api/chat").slice(-2);
    expect(JSON.parse(chats[0]!.body).model).toBe("missing");
    expect(JSON.parse(chats[1]!.body)).toEqual({
      model: "llama3.2",
      messages: [{ role: "user", content: "Hej" }],
      stream: false,
      options: { temperature: 0.1, num_predict: 64, stop: ["\n\n"] },
    });
    expect((await quotaOf(user)).used_quota).toBe(29);
  });

  it("streams NDJSON split across reads", async () => {
    const { user, client } = await userWithToken(100_000);
    const { text, finish, usage } = await streamText(client, models.ollama);
    expect(text).toBe("Hallå där!");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 26, completion_tokens: 3 });
    expect(await lastLog(user, models.ollama)).toMatchObject({ quota: 29, is_stream: true });
  });

  it("embeds through /api/embed", async () => {
    const { user, client } = await userWithToken(100_000);
    // The SDK asks for base64 by default; Ollama only answers floats, so the gateway encodes them.
    const reply = await client.embeddings.create({ model: embed.ollama, input: ["a", "b"] });
    expect(reply.data.map((d) => d.embedding.map((n) => Math.round(n * 1000) / 1000))).toEqual([
      [0.1, 0.2, 0.3],
      [1.1, 0.2, 0.3],
    ]);
    expect(JSON.parse(lastTo(ollama, "/api/embed").body)).toEqual({ model: "nomic-embed-text", input: ["a", "b"] });
    const floats = await client.embeddings.create({ model: embed.ollama, input: "a", encoding_format: "float" });
    expect(floats.data[0]?.embedding).toEqual([0.1, 0.2, 0.3]);
    expect((await quotaOf(user)).used_quota).toBe(16);
  });
});

describe("MiniMax (35)", () => {
  it("calls chatcompletion_v2; a base_resp 1004 in a 200 fails over like a 401", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.minimax,
      messages: [{ role: "user", content: "Hej" }],
    });
    expect(reply.choices[0]?.message.content).toBe("MiniMax hälsar");
    expect(reply.model).toBe(models.minimax);
    expect(reply).not.toHaveProperty("base_resp");
    const calls = minimax.requests.filter((r) => r.path === "/v1/text/chatcompletion_v2").slice(-2);
    expect(calls.map((c) => c.headers.authorization)).toEqual(["Bearer wrong-key", "Bearer mm-key"]);
    expect((await quotaOf(user)).used_quota).toBe(29);
  });

  it("streams deltas; the final summary event does not repeat the text", async () => {
    const { user, client } = await userWithToken(100_000);
    const { text, finish, usage } = await streamText(client, models.minimax);
    expect(text).toBe("MiniMax hälsar");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 8 });
    expect(await lastLog(user, models.minimax)).toMatchObject({ quota: 29, is_stream: true });
  });

  it("a bad key alone is the gateway's 502, not the caller's 401", async () => {
    const { client } = await userWithToken(100_000);
    const error = (await client.chat.completions
      .create({ model: soloBad.minimax, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.code).toBe("channel_credentials_refused");
  });
});

describe("Cloudflare Workers AI (39)", () => {
  it("sends chat to the account path with the mapped model and streams with usage", async () => {
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model: models.cloudflare,
      messages: [{ role: "user", content: "Hej" }],
    });
    expect(reply.choices[0]?.message.content).toBe("Workers AI");
    const [failed, sent] = cloudflare.requests.slice(-2);
    expect(failed!.headers.authorization).toBe("Bearer wrong-key");
    expect(sent!.path).toBe("/client/v4/accounts/acc123/ai/v1/chat/completions");
    expect(sent!.headers.authorization).toBe("Bearer cf-token");
    expect(JSON.parse(sent!.body).model).toBe("@cf/meta/llama-3.1-8b-instruct");
    const streamed = await streamText(client, models.cloudflare);
    expect(streamed.text).toBe("Workers AI");
    expect((await quotaOf(user)).used_quota).toBe(38);
  });

  it("embeds at the account path; a bad token is the gateway's 502, not the caller's 401", async () => {
    const { client } = await userWithToken(100_000);
    const reply = await client.embeddings.create({ model: embed.cloudflare, input: "a", encoding_format: "float" });
    expect(reply.data[0]?.embedding).toEqual([0.25, 0.75]);
    expect(cloudflare.requests.at(-1)!.path).toBe("/client/v4/accounts/acc123/ai/v1/embeddings");
    const error = (await client.chat.completions
      .create({ model: soloBad.cloudflare, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.code).toBe("channel_credentials_refused");
  });
});

describe("Jina (38) and SiliconCloud (40)", () => {
  it("Jina embeddings and rerank pass through, fail over from a bad key and bill their usage", async () => {
    const { user, key, client } = await userWithToken(100_000);
    const vectors = await client.embeddings.create({ model: embed.jina, input: ["x"], encoding_format: "float" });
    expect(vectors.data[0]?.embedding).toEqual([0.5, -0.5]);
    expect(jina.requests.slice(-2).map((r) => r.headers.authorization)).toEqual([
      "Bearer wrong-key",
      "Bearer jina_key",
    ]);
    const res = await request(
      "POST",
      "/v1/rerank",
      { model: rerank.jina, query: "q", documents: ["a", "b", "c"], top_n: 2 },
      { Authorization: `Bearer ${key}` },
    );
    expect(res.json.results).toEqual([
      { index: 0, document: { text: "a" }, relevance_score: 0.5 },
      { index: 1, document: { text: "b" }, relevance_score: 1 / 3 },
    ]);
    expect(JSON.parse(lastTo(jina, "/v1/rerank").body)).toEqual({
      model: rerank.jina,
      query: "q",
      documents: ["a", "b", "c"],
      top_n: 2,
    });
    expect((await quotaOf(user)).used_quota).toBe(12 + 35);
  });

  it("SiliconCloud rerank reports tokens.input_tokens as usage", async () => {
    const { user, key } = await userWithToken(100_000);
    const res = await request(
      "POST",
      "/v1/rerank",
      { model: rerank.silicon, query: "q", documents: ["a", "b"] },
      { Authorization: `Bearer ${key}` },
    );
    expect(res.json).toEqual({
      id: "sf-1",
      results: [
        { index: 0, relevance_score: 0.5 },
        { index: 1, relevance_score: 0.4 },
      ],
      usage: { prompt_tokens: 21, total_tokens: 21 },
    });
    expect(silicon.requests.at(-1)!.path).toBe("/v1/rerank");
    expect((await quotaOf(user)).used_quota).toBe(21);
  });
});

describe("OpenAI-wire types at their own paths", () => {
  it.each([
    [45, "/api/v3/chat/completions"],
    [27, "/chat/completions"],
    [46, "/v2/chat/completions"],
    [43, "/v1/chat/completions"],
    [47, "/v1/chat/completions"],
  ])("type %i is sent to %s", async (type, path) => {
    const model = uniqueModel(`t${type}`);
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { type, key: `key-${type}`, base_url: paths.url, models: model });
    const { client } = await userWithToken(100_000);
    await client.chat.completions.create({ model, messages: [{ role: "user", content: "x" }] });
    expect(paths.requests.at(-1)).toMatchObject({
      path,
      headers: expect.objectContaining({ authorization: `Bearer key-${type}` }),
    });
  });
});

describe("a type that needs a base URL", () => {
  it("is refused at save without one, on create and on update", async () => {
    for (const type of [3, 8, 47]) {
      const res = await root.call("POST", "/api/channel/", {
        type,
        key: "k",
        name: uniqueModel("nb"),
        models: "m1",
        group: "default",
      });
      expect(res.json).toMatchObject({ success: false, message: "该渠道类型必须填写 Base URL" });
    }
    const id = await createChannel(root, { type: 47, key: "k", base_url: paths.url, models: uniqueModel("xi") });
    expect((await root.call("PUT", "/api/channel/", { id, base_url: "" })).json).toMatchObject({
      success: false,
      message: "该渠道类型必须填写 Base URL",
    });
    // A type with a default host may leave it blank.
    expect(
      (
        await root.call("POST", "/api/channel/", {
          type: 43,
          key: "k",
          name: uniqueModel("ds"),
          models: "m1",
          group: "default",
        })
      ).json.success,
    ).toBe(true);
  });

  it.skipIf(!databaseUrl)(
    "a legacy row without one is never sent anywhere, the client gets a clear error, the channel stays enabled",
    async () => {
      const model = uniqueModel("legacy");
      await mergeOption(root, "ModelRatio", { [model]: 1 });
      const recorder = await startProviderMock({
        authorized: () => true,
        unauthorized: { status: 401, body: {} },
        route: (_r, res) => sendJson(res, 200, {}),
      });
      mocks.push(recorder);
      const ids = [];
      for (const type of [47, 8, 3])
        ids.push(await createChannel(root, { type, key: `sk-legacy-${type}`, base_url: recorder.url, models: model }));
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        await db.query("update channels set base_url = '' where id = any($1::int[])", [ids]);
      } finally {
        await db.end();
      }
      // Any channel change reloads the routing table on every node.
      await createChannel(root, { models: uniqueModel("reload"), base_url: paths.url });
      await setOption(root, "AutomaticDisableChannelEnabled", "true");
      const { client } = await userWithToken(100_000);
      const error = (await client.chat.completions
        .create({ model, messages: [{ role: "user", content: "x" }] })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error.message).toContain("未设置 Base URL");
      expect(recorder.requests).toHaveLength(0);
      for (const id of ids) expect((await root.call("GET", `/api/channel/${id}`)).json.data.status).toBe(1);
      // Such a row can still be disabled; saving it again asks for the base URL.
      expect((await root.call("PUT", "/api/channel/", { id: ids[0], status: 2 })).json.success).toBe(true);
      expect(
        (await root.call("PUT", "/api/channel/", { id: ids[0], base_url: "", name: "legacy" })).json,
      ).toMatchObject({ success: false, message: "该渠道类型必须填写 Base URL" });
      await setOption(root, "AutomaticDisableChannelEnabled", "false");
    },
  );
});
