import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startAliMock, type AliMock } from "../mocks/ali-upstream";
import { startBaiduMock, type BaiduMock } from "../mocks/baidu-upstream";
import { startHunyuanMock, type HunyuanMock } from "../mocks/hunyuan-upstream";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { startSparkMock, type SparkMock } from "../mocks/spark-upstream";
import { startZhipuMock, type ZhipuMock, verifyZhipuJwt } from "../mocks/zhipu-upstream";
import { createChannel, mergeOption, quotaOf, setOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * Each Chinese provider's channel type, pointed at a loopback mock that speaks its real protocol
 * and verifies its credential scheme: chat and stream through the openai client, billed from the
 * provider's usage and logged; a provider failure fails over; its "bad key" answer auto-disables.
 */
let root: ApiSession;
let baidu: BaiduMock;
let zhipu: ZhipuMock;
let ali: AliMock;
let spark: SparkMock;
let hunyuan: HunyuanMock;
let fallback: MockUpstream;
let saved: Record<string, string> = {};

const ZHIPU_KEYS = { "4f3e2d1c": "s3cr3t-zhipu" };
const SPARK = {
  appId: "5a1b2c3d",
  apiSecret: "NjFmYjY5OTc3ZTE4MzFmYTE2ZGY1NzE3",
  apiKey: "c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6",
};
const HUNYUAN = {
  appId: "1300000000",
  secretId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE",
  secretKey: "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE",
};

type Case = {
  name: string;
  type: number;
  key: string;
  badKey: string;
  other?: string;
  upstreamModel: string;
  url: () => string;
  text: string;
  usage: [number, number];
  streamText: string;
  streamUsage: [number, number];
  fail: (on: boolean) => void;
};

const cases: Case[] = [
  {
    name: "Baidu ERNIE (15)",
    type: 15,
    key: "ak-test|sk-test",
    badKey: "ak-wrong|sk-test",
    upstreamModel: "ERNIE-4.0-8K",
    url: () => baidu.url,
    text: "你好，我是文心一言。",
    usage: [9, 7],
    streamText: "你好，我是文心一言。",
    streamUsage: [9, 8],
    fail: (on) =>
      (baidu.fault = on
        ? { kind: "error-body", body: { error_code: 18, error_msg: "Open api qps request limit reached" } }
        : undefined),
  },
  {
    name: "Zhipu ChatGLM v3 (16)",
    type: 16,
    key: "4f3e2d1c.s3cr3t-zhipu",
    badKey: "4f3e2d1c.wrong-secret",
    upstreamModel: "chatglm_turbo",
    url: () => zhipu.url,
    text: "你好！我是智谱清言。\n有什么可以帮你？",
    usage: [11, 13],
    streamText: "你好！我是智谱\n清言。",
    streamUsage: [11, 12],
    fail: (on) =>
      (zhipu.fault = on
        ? { kind: "error-body", body: { code: 1302, msg: "您当前使用该API的并发数过高，请降低并发", success: false } }
        : undefined),
  },
  {
    name: "Zhipu GLM-4 v4 (26)",
    type: 26,
    key: "4f3e2d1c.s3cr3t-zhipu",
    badKey: "4f3e2d1c.wrong-secret",
    upstreamModel: "glm-4",
    url: () => zhipu.url,
    text: "你好，我是 GLM-4。",
    usage: [12, 10],
    streamText: "你好，我是 GLM-4。",
    streamUsage: [12, 9],
    fail: (on) =>
      (zhipu.fault = on
        ? { kind: "status", status: 500, body: { error: { code: "500", message: "内部错误" } } }
        : undefined),
  },
  {
    name: "Ali DashScope (17)",
    type: 17,
    key: "sk-dashscope",
    badKey: "sk-wrong",
    upstreamModel: "qwen-turbo",
    url: () => ali.url,
    text: "你好，我是通义千问。",
    usage: [19, 8],
    streamText: "你好，我是通义千问。",
    streamUsage: [19, 9],
    fail: (on) =>
      (ali.fault = on
        ? {
            kind: "status",
            status: 429,
            body: {
              code: "Throttling.RateQuota",
              message: "Requests rate limit exceeded, please try again later.",
              request_id: "r",
            },
          }
        : undefined),
  },
  {
    name: "iFlytek Spark (18)",
    type: 18,
    key: `${SPARK.appId}|${SPARK.apiSecret}|${SPARK.apiKey}`,
    badKey: `${SPARK.appId}|wrong-secret|${SPARK.apiKey}`,
    other: "v3.5",
    upstreamModel: "SparkDesk-v3.5",
    url: () => spark.url,
    text: "你好！我是讯飞星火认知大模型。",
    usage: [15, 11],
    streamText: "你好！我是讯飞星火认知大模型。",
    streamUsage: [15, 11],
    fail: (on) => (spark.errorFrame = on ? { code: 11202, message: "授权错误：秒级流控超限" } : undefined),
  },
  {
    name: "Tencent Hunyuan (23)",
    type: 23,
    key: `${HUNYUAN.appId}|${HUNYUAN.secretId}|${HUNYUAN.secretKey}`,
    badKey: `${HUNYUAN.appId}|${HUNYUAN.secretId}|wrong-secret-key`,
    upstreamModel: "hunyuan-standard",
    url: () => hunyuan.url,
    text: "你好，我是腾讯混元。",
    usage: [14, 6],
    streamText: "你好，我是腾讯混元。",
    streamUsage: [14, 7],
    fail: (on) =>
      (hunyuan.fault = on
        ? {
            kind: "error-body",
            body: { Response: { Error: { Code: "InternalError", Message: "内部错误" }, RequestId: "r" } },
          }
        : undefined),
  },
];

async function pricedModel(prefix: string): Promise<string> {
  const model = uniqueModel(prefix);
  await mergeOption(root, "ModelRatio", { [model]: 1 });
  await mergeOption(root, "CompletionRatio", { [model]: 1 });
  return model;
}

async function channelFor(c: Case, model: string, fields: Record<string, unknown> = {}): Promise<number> {
  return createChannel(root, {
    type: c.type,
    key: c.key,
    base_url: c.url(),
    models: model,
    model_mapping: JSON.stringify({ [model]: c.upstreamModel }),
    ...(c.other ? { other: c.other } : {}),
    ...fields,
  });
}

async function lastLog(user: ApiSession) {
  const items = (await user.call("GET", "/api/log/self?p=1&page_size=10")).json.data.items as {
    model_name: string;
    prompt_tokens: number;
    completion_tokens: number;
    quota: number;
    channel: number;
    is_stream: boolean;
  }[];
  return items[0];
}

beforeAll(async () => {
  root = await loginRoot();
  const options = (await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[];
  saved = Object.fromEntries(
    options
      .filter((o) => ["RetryTimes", "AutomaticDisableChannelEnabled"].includes(o.key))
      .map((o) => [o.key, o.value]),
  );
  await setOption(root, "RetryTimes", "3");
  baidu = await startBaiduMock({ "ak-test": "sk-test", "ak-fresh": "sk-fresh" });
  zhipu = await startZhipuMock(ZHIPU_KEYS);
  ali = await startAliMock("sk-dashscope");
  spark = await startSparkMock(SPARK.appId, SPARK.apiSecret, SPARK.apiKey);
  hunyuan = await startHunyuanMock({ [HUNYUAN.secretId]: HUNYUAN.secretKey });
  fallback = await startOpenAiMock({ apiKey: "sk-fallback" });
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) await setOption(root, key, value);
  await Promise.all([baidu.close(), zhipu.close(), ali.close(), spark.close(), hunyuan.close(), fallback.close()]);
});

describe.each(cases)("$name", (c) => {
  it("answers a chat completion, billed from the provider's usage and logged", async () => {
    const model = await pricedModel("cn");
    const channelId = await channelFor(c, model);
    const { user, client } = await userWithToken(100_000);
    const reply = await client.chat.completions.create({
      model,
      messages: [
        { role: "system", content: "简短回答。" },
        { role: "user", content: "你好" },
      ],
      temperature: 0.5,
    });
    expect(reply.choices[0]?.message.content).toBe(c.text);
    expect(reply.choices[0]?.finish_reason).toBe("stop");
    expect(reply.model).toBe(model);
    expect(reply.usage).toMatchObject({
      prompt_tokens: c.usage[0],
      completion_tokens: c.usage[1],
      total_tokens: c.usage[0] + c.usage[1],
    });
    expect((await quotaOf(user)).used_quota).toBe(c.usage[0] + c.usage[1]);
    expect(await lastLog(user)).toMatchObject({
      model_name: model,
      prompt_tokens: c.usage[0],
      completion_tokens: c.usage[1],
      quota: c.usage[0] + c.usage[1],
      channel: channelId,
    });
  });

  it("streams the reply as OpenAI chunks, with the provider's usage billed and reported", async () => {
    const model = await pricedModel("cns");
    await channelFor(c, model);
    const { user, client } = await userWithToken(100_000);
    const stream = await client.chat.completions.create({
      model,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "你好" }],
    });
    let text = "";
    let finish = "";
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(c.streamText);
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: c.streamUsage[0], completion_tokens: c.streamUsage[1] });
    expect((await quotaOf(user)).used_quota).toBe(c.streamUsage[0] + c.streamUsage[1]);
    expect(await lastLog(user)).toMatchObject({
      model_name: model,
      prompt_tokens: c.streamUsage[0],
      completion_tokens: c.streamUsage[1],
      is_stream: true,
    });
  });

  it("fails over to another channel when the provider answers an error", async () => {
    const model = await pricedModel("cnf");
    const failing = await channelFor(c, model, { priority: 10 });
    const backup = await createChannel(root, {
      type: 1,
      key: "sk-fallback",
      base_url: fallback.url,
      models: model,
      priority: 0,
    });
    const { user, client } = await userWithToken(100_000);
    c.fail(true);
    try {
      const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: "你好" }] });
      expect(reply.choices[0]?.message.content).toBe("Hello there.");
    } finally {
      c.fail(false);
    }
    const log = await lastLog(user);
    expect(log?.channel).toBe(backup);
    // A transient provider error is no reason to disable the channel.
    expect((await root.call("GET", `/api/channel/${failing}`)).json.data.status).toBe(1);
  });

  it("passes the console's channel test", async () => {
    const model = await pricedModel("cnt");
    const id = await channelFor(c, model);
    const res = await root.call("GET", `/api/channel/test/${id}?model=${model}`);
    expect(res.json).toMatchObject({ success: true });
  });

  it("auto-disables a channel whose key the provider rejects", async () => {
    const model = await pricedModel("cnd");
    const id = await channelFor(c, model, { key: c.badKey, auto_ban: 1 });
    await setOption(root, "AutomaticDisableChannelEnabled", "true");
    const { user, key } = await userWithToken(100_000);
    const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    });
    // The provider refused the channel's key: the gateway's failure, not the caller's 401 (decision 034).
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("channel_credentials_refused");
    const channel = (await root.call("GET", `/api/channel/${id}`)).json.data;
    expect(channel.status).toBe(3);
    expect((await quotaOf(user)).quota).toBe(100_000);
  });
});

describe("provider specifics", () => {
  it("Baidu: concurrent first calls share one token exchange; the exact ERNIE request goes to the mapped endpoint", async () => {
    const model = await pricedModel("ernie");
    // A key pair no call has used yet: nothing cached for it.
    await createChannel(root, {
      type: 15,
      key: "ak-fresh|sk-fresh",
      base_url: baidu.url,
      models: model,
      model_mapping: JSON.stringify({ [model]: "ERNIE-Speed-8K" }),
    });
    const { client } = await userWithToken(100_000);
    const before = baidu.exchanges;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        client.chat.completions.create({
          model,
          messages: [
            { role: "system", content: "S" },
            { role: "user", content: "Q" },
          ],
          max_tokens: 50,
          user: "u-1",
        }),
      ),
    );
    expect(baidu.exchanges - before).toBe(1);
    const sent = baidu.requests.filter((r) => r.path.includes("/chat/")).at(-1)!;
    expect(sent.path).toMatch(/^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/ernie_speed\?access_token=24\./);
    expect(JSON.parse(sent.body)).toEqual({
      messages: [{ role: "user", content: "Q" }],
      system: "S",
      max_output_tokens: 50,
      user_id: "u-1",
    });
  });

  it("Baidu: a token the provider calls invalid (110) is renewed once and the call repeated", async () => {
    const model = await pricedModel("ernie110");
    await createChannel(root, {
      type: 15,
      key: "ak-test|sk-test",
      base_url: baidu.url,
      models: model,
      model_mapping: JSON.stringify({ [model]: "ERNIE-3.5-8K" }),
    });
    const { client } = await userWithToken(100_000);
    await client.chat.completions.create({ model, messages: [{ role: "user", content: "Q" }] });
    const before = baidu.exchanges;
    baidu.revokeTokens();
    const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Q" }] });
    expect(reply.choices[0]?.message.content).toBe("你好，我是文心一言。");
    expect(baidu.exchanges).toBe(before + 1);
  });

  it("Baidu and Zhipu v4 and Ali: embeddings in their own wire, answered as OpenAI embeddings", async () => {
    const ernie = await pricedModel("emb");
    const glm = await pricedModel("emb");
    const qwen = await pricedModel("emb");
    await createChannel(root, {
      type: 15,
      key: "ak-test|sk-test",
      base_url: baidu.url,
      models: ernie,
      model_mapping: JSON.stringify({ [ernie]: "Embedding-V1" }),
    });
    await createChannel(root, {
      type: 26,
      key: "4f3e2d1c.s3cr3t-zhipu",
      base_url: zhipu.url,
      models: glm,
      model_mapping: JSON.stringify({ [glm]: "embedding-2" }),
    });
    await createChannel(root, {
      type: 17,
      key: "sk-dashscope",
      base_url: ali.url,
      models: qwen,
      model_mapping: JSON.stringify({ [qwen]: "text-embedding-v1" }),
    });
    const { user, client } = await userWithToken(100_000);
    const a = await client.embeddings.create({ model: ernie, input: "你好世界" });
    expect(a.data[0]?.embedding).toHaveLength(3);
    expect(baidu.requests.at(-1)!.path).toMatch(
      /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/embeddings\/embedding-v1\?access_token=/,
    );
    expect(JSON.parse(baidu.requests.at(-1)!.body)).toEqual({ input: ["你好世界"] });
    const b = await client.embeddings.create({ model: glm, input: "你好世界" });
    expect(b.data[0]?.embedding).toHaveLength(2);
    expect(zhipu.requests.at(-1)!.path).toBe("/api/paas/v4/embeddings");
    const c = await client.embeddings.create({ model: qwen, input: ["你好世界"] });
    expect(c.data[0]?.embedding).toHaveLength(2);
    expect(JSON.parse(ali.requests.at(-1)!.body)).toEqual({
      model: "text-embedding-v1",
      input: { texts: ["你好世界"] },
      parameters: { text_type: "query" },
    });
    // 5 + 6 + 4 prompt tokens at ratio 1.
    expect((await quotaOf(user)).used_quota).toBe(15);
  });

  it("Zhipu: the token sent verifies under the key's secret, as the Authorization value (v3) and a Bearer token (v4)", async () => {
    const v3 = zhipu.requests.find(
      (r) => r.path.startsWith("/api/paas/v3/") && r.path.endsWith("/invoke") && !r.body.includes("wrong"),
    )!;
    expect(verifyZhipuJwt(String(v3.headers.authorization), ZHIPU_KEYS)).toBeUndefined();
    expect(v3.path).toBe("/api/paas/v3/model-api/chatglm_turbo/invoke");
    expect(JSON.parse(v3.body)).toEqual({
      prompt: [
        { role: "user", content: "简短回答。" },
        { role: "assistant", content: "好的" },
        { role: "user", content: "你好" },
      ],
      temperature: 0.5,
    });
    const v4 = zhipu.requests.find((r) => r.path === "/api/paas/v4/chat/completions")!;
    expect(String(v4.headers.authorization)).toMatch(/^Bearer /);
    expect(verifyZhipuJwt(String(v4.headers.authorization).slice(7), ZHIPU_KEYS)).toBeUndefined();
  });

  it("Ali: the plugin parameter from `other` and the exact DashScope request", async () => {
    const model = await pricedModel("qwen");
    await createChannel(root, {
      type: 17,
      key: "sk-dashscope",
      base_url: ali.url,
      models: model,
      other: '{"pdf_extracter":{}}',
      model_mapping: JSON.stringify({ [model]: "qwen-plus" }),
    });
    const { client } = await userWithToken(100_000);
    await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "Q" }],
      top_p: 0.8,
      max_tokens: 20,
    });
    const sent = ali.requests.at(-1)!;
    expect(sent.headers["x-dashscope-plugin"]).toBe('{"pdf_extracter":{}}');
    expect(JSON.parse(sent.body)).toEqual({
      model: "qwen-plus",
      input: { messages: [{ role: "user", content: "Q" }] },
      parameters: { result_format: "message", top_p: 0.8, max_tokens: 20 },
    });
  });

  it("Ali: a wanx image is submitted as an async task, polled, and answered as an OpenAI images reply", async () => {
    const model = await pricedModel("wanx");
    await createChannel(root, {
      type: 17,
      key: "sk-dashscope",
      base_url: ali.url,
      models: model,
      model_mapping: JSON.stringify({ [model]: "wanx-v1" }),
    });
    const { client } = await userWithToken(100_000);
    const image = await client.images.generate({ model, prompt: "一只猫", size: "1024x1024", n: 1 });
    expect(image.data?.[0]?.url).toBe("https://dashscope-result-bj.oss-cn-beijing.aliyuncs.com/1.png");
    const submit = ali.requests.find((r) => r.path === "/api/v1/services/aigc/text2image/image-synthesis")!;
    expect(submit.headers["x-dashscope-async"]).toBe("enable");
    expect(JSON.parse(submit.body)).toEqual({
      model: "wanx-v1",
      input: { prompt: "一只猫" },
      parameters: { n: 1, size: "1024*1024" },
    });
    expect(ali.requests.filter((r) => r.path.startsWith("/api/v1/tasks/")).length).toBe(2);
  });

  it("Spark: the request frame names the version's domain and the app id; 11200 (授权错误) auto-disables", async () => {
    const call = spark.calls.find((c) => c.path === "/v3.5/chat")!;
    expect(call.frame).toEqual({
      header: { app_id: SPARK.appId },
      parameter: { chat: { domain: "generalv3.5", temperature: 0.5 } },
      payload: {
        message: {
          text: [
            { role: "system", content: "简短回答。" },
            { role: "user", content: "你好" },
          ],
        },
      },
    });
    const model = await pricedModel("spark");
    const id = await createChannel(root, {
      type: 18,
      key: `${SPARK.appId}|${SPARK.apiSecret}|${SPARK.apiKey}`,
      base_url: spark.url,
      other: "v4.0",
      models: model,
      auto_ban: 1,
    });
    await setOption(root, "AutomaticDisableChannelEnabled", "true");
    spark.errorFrame = { code: 11200, message: "授权错误：该appId没有相关授权 或者 业务量超过限制" };
    const { key } = await userWithToken(100_000);
    try {
      const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
      });
      // Spark's 11200 stands for a 401 on the channel's credentials: the gateway's 502 (decision 034).
      expect(res.status).toBe(502);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("channel_credentials_refused");
    } finally {
      spark.errorFrame = undefined;
    }
    expect(spark.calls.at(-1)!.path).toBe("/v4.0/chat");
    expect((await root.call("GET", `/api/channel/${id}`)).json.data.status).toBe(3);
    expect(spark.handshakeRefusals).toBeGreaterThanOrEqual(1);
  });

  it("Spark: a socket that never answers is closed at the reply timeout (504), nothing charged", async () => {
    const model = await pricedModel("sparkhang");
    await createChannel(root, {
      type: 18,
      key: `${SPARK.appId}|${SPARK.apiSecret}|${SPARK.apiKey}`,
      base_url: spark.url,
      other: "v3.5",
      models: model,
    });
    const { user, key } = await userWithToken(100_000);
    const closedBefore = spark.closedByClient;
    spark.silent = true;
    try {
      const started = Date.now();
      const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
      });
      expect(res.status).toBe(504);
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      spark.silent = false;
    }
    await expect.poll(() => spark.closedByClient).toBe(closedBefore + 1);
    expect((await quotaOf(user)).quota).toBe(100_000);
  });

  it("Spark: a socket dropped before the last frame is a failed call, tried again on another channel", async () => {
    const model = await pricedModel("sparkdrop");
    await createChannel(root, {
      type: 18,
      key: `${SPARK.appId}|${SPARK.apiSecret}|${SPARK.apiKey}`,
      base_url: spark.url,
      other: "v3.5",
      models: model,
      priority: 10,
    });
    const backup = await createChannel(root, {
      type: 1,
      key: "sk-fallback",
      base_url: fallback.url,
      models: model,
      priority: 0,
    });
    const { user, client } = await userWithToken(100_000);
    spark.dropAfterFrames = 1;
    try {
      const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
      expect(reply.choices[0]?.message.content).toBe("Hello there.");
    } finally {
      spark.dropAfterFrames = undefined;
    }
    expect((await lastLog(user))?.channel).toBe(backup);
  });

  it("Hunyuan: the exact signed request (action, version, body)", async () => {
    const sent = hunyuan.requests.find((r) => !JSON.parse(r.body).Stream)!;
    expect(sent.path).toBe("/");
    expect(sent.headers["x-tc-action"]).toBe("ChatCompletions");
    expect(sent.headers["x-tc-version"]).toBe("2023-09-01");
    expect(String(sent.headers.authorization)).toMatch(
      new RegExp(
        `^TC3-HMAC-SHA256 Credential=${HUNYUAN.secretId}/\\d{4}-\\d{2}-\\d{2}/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(JSON.parse(sent.body)).toEqual({
      Model: "hunyuan-standard",
      Messages: [
        { Role: "system", Content: "简短回答。" },
        { Role: "user", Content: "你好" },
      ],
      Stream: false,
      Temperature: 0.5,
    });
  });
});
