import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Channel } from "../../../db/schema";
import { aliAdapter } from "~/relay/adapters/ali/ali-adapter";
import { createDashScopeStreamTranslator, fromDashScopeChat, toWanxTask } from "~/relay/adapters/ali/ali-convert";
import { parseAliError } from "~/relay/adapters/ali/ali-errors";
import { chatEndpoint, embeddingEndpoint } from "~/relay/adapters/baidu/baidu-endpoints";
import { createErnieStreamTranslator, fromErnieResponse, toErnieRequest } from "~/relay/adapters/baidu/baidu-convert";
import { baiduErrorStatus, parseBaiduError } from "~/relay/adapters/baidu/baidu-errors";
import { CredentialCache } from "~/relay/adapters/shared/credential-cache";
import { encodeEmbedding } from "~/relay/adapters/shared/openai-shapes";
import {
  createSparkStreamTranslator,
  fromSparkFrames,
  sparkVersion,
  toSparkFrame,
} from "~/relay/adapters/spark/spark-convert";
import { parseSparkError } from "~/relay/adapters/spark/spark-errors";
import { sparkAuthorization, sparkSignature } from "~/relay/adapters/spark/spark-sign";
import { sparkAdapter } from "~/relay/adapters/spark/spark-adapter";
import { hunyuanAdapter } from "~/relay/adapters/tencent/hunyuan-adapter";
import { createHunyuanStreamTranslator, fromHunyuanResponse } from "~/relay/adapters/tencent/hunyuan-convert";
import { hunyuanErrorStatus, parseHunyuanError } from "~/relay/adapters/tencent/hunyuan-errors";
import { tc3Signature } from "~/relay/adapters/tencent/tc3-sign";
import { signZhipuJwt } from "~/relay/adapters/zhipu/zhipu-jwt";
import { parseZhipuError, zhipuV3ErrorStatus } from "~/relay/adapters/zhipu/zhipu-errors";
import { zhipuV3Adapter } from "~/relay/adapters/zhipu/zhipu-adapter";
import {
  createZhipuV3Decoder,
  createZhipuV3StreamTranslator,
  fromZhipuV3Response,
  toZhipuV3Request,
} from "~/relay/adapters/zhipu/zhipu-v3-convert";
import type { AdapterContext, StreamDecoder, StreamTranslator } from "~/relay/adapters/types";
import { shouldDisableChannel } from "~/relay/failure-policy";
import type { ReplySink } from "~/relay/reply-sink";
import { pipeStream } from "~/relay/stream/pipe-stream.server";
import { verifyZhipuJwt } from "../../mocks/zhipu-upstream";

const fixture = (provider: string, name: string) =>
  readFileSync(new URL(`../../fixtures/upstream/${provider}/${name}`, import.meta.url));

function ctxFor(type: number, fields: Partial<AdapterContext> & { base_url?: string; other?: string }): AdapterContext {
  const channel = { id: 7, type, base_url: fields.base_url ?? "", other: fields.other ?? "" } as Channel;
  return {
    channel,
    key: "",
    mode: "chat",
    path: "/v1/chat/completions",
    body: {},
    upstreamModel: "m",
    requestModel: "client-model",
    stream: false,
    ...fields,
  };
}

/** Runs a stream body through the real pipe, delivered `size` bytes at a time (cutting events and characters anywhere). */
async function pipeInPieces(body: Buffer, translator: StreamTranslator, size: number, decoder?: StreamDecoder) {
  const upstream = new PassThrough();
  const writes: string[] = [];
  const sink = {
    start: () => undefined,
    write: (c: unknown) => void writes.push(String(c)),
    end: () => undefined,
    started: true,
    open: true,
    onClientGone: () => undefined,
  } as unknown as ReplySink;
  const outcome = pipeStream(upstream as unknown as IncomingMessage, sink, translator, 5_000, () => undefined, decoder);
  for (let at = 0; at < body.length; at += size) {
    upstream.write(body.subarray(at, at + size));
    await new Promise((r) => setImmediate(r));
  }
  upstream.end();
  const result = await outcome;
  // The events of the read that completed the reply, then the usage-only chunk, go out with the
  // end of the stream (endStream sends them with the usage billed).
  writes.push(result.tail);
  if (result.usageFrame) writes.push(`data: ${result.usageFrame}\n\n`);
  const chunks = writes
    .join("")
    .split("\n\n")
    .filter(Boolean)
    .map(
      (e) =>
        JSON.parse(e.slice(6)) as {
          choices: { delta: { content?: string }; finish_reason: string | null }[];
          usage?: unknown;
        },
    );
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
  const finish = chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);
  return { text, finish, usage: result.usage, chunks };
}

afterEach(() => vi.useRealTimers());

describe("signatures against the providers' documented examples", () => {
  it("Spark: iFlytek's example signature and authorization", () => {
    const signature = sparkSignature(
      "MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi",
      "spark-api.xf-yun.com",
      "Fri, 05 May 2023 10:43:39 GMT",
      "/v1.1/chat",
    );
    expect(signature).toBe("z5gHdu3pxVV4ADMyk467wOWDQ9q6BQzR3nfMTjc/DaQ=");
    expect(sparkAuthorization("addd2272b6d8b7c8abdd79531420ca3b", signature)).toBe(
      "YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBkYXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i",
    );
  });

  it("TC3: Tencent Cloud's DescribeInstances example signature", () => {
    const payload = '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}';
    const signature = tc3Signature({
      secretId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******",
      secretKey: "Gu5t9xGARNpq86cd98joQYCN3*******",
      host: "cvm.tencentcloudapi.com",
      service: "cvm",
      action: "DescribeInstances",
      version: "2017-03-12",
      timestamp: 1551113065,
      payload,
      contentType: "application/json; charset=utf-8",
    });
    expect(signature).toBe("2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c");
  });

  it("Zhipu: the JWT has Zhipu's header and millisecond claims, and verifies only under the key's secret", () => {
    const token = signZhipuJwt("kid.secret-1", 1_700_000_000_000);
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: "HS256", sign_type: "SIGN" });
    expect(payload).toEqual({ api_key: "kid", exp: 1_700_000_000_000 + 30 * 60 * 1000, timestamp: 1_700_000_000_000 });
    const fresh = signZhipuJwt("kid.secret-1", Date.now());
    expect(verifyZhipuJwt(fresh, { kid: "secret-1" })).toBeUndefined();
    expect(verifyZhipuJwt(fresh, { kid: "secret-2" })).toBe("bad signature");
    expect(() => signZhipuJwt("no-dot", Date.now())).toThrow("id.secret");
  });
});

describe("CredentialCache", () => {
  it("shares one exchange among concurrent callers, reuses it until the margin, and does not keep a failure", async () => {
    const cache = new CredentialCache<string>(1_000);
    let exchanges = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const exchange = async () => {
      exchanges += 1;
      await gate;
      return { value: `t${exchanges}`, expiresAt: Date.now() + 60_000 };
    };
    const waiting = Promise.all([cache.get("k", exchange), cache.get("k", exchange), cache.get("k", exchange)]);
    release();
    expect(await waiting).toEqual(["t1", "t1", "t1"]);
    expect(await cache.get("k", exchange)).toBe("t1");
    cache.invalidate("k", "t1");
    expect(await cache.get("k", exchange)).toBe("t2");
    const nearlyExpired = new CredentialCache<string>(10_000);
    await nearlyExpired.get("k", async () => ({ value: "old", expiresAt: Date.now() + 5_000 }));
    expect(await nearlyExpired.get("k", async () => ({ value: "new", expiresAt: Date.now() + 60_000 }))).toBe("new");
    await expect(cache.get("x", () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(await cache.get("x", async () => ({ value: "ok", expiresAt: Date.now() + 60_000 }))).toBe("ok");
  });
});

describe("Baidu ERNIE", () => {
  it("builds the ERNIE request: system field, alternating turns, its parameter names and ranges", () => {
    const body = {
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "a" },
        { role: "user", content: [{ type: "text", text: "b" }] },
        { role: "assistant", content: "c" },
        { role: "user", content: "d" },
      ],
      temperature: 0,
      top_p: 0.9,
      max_tokens: 100,
      stop: "END",
    };
    expect(toErnieRequest(body, true)).toEqual({
      messages: [
        { role: "user", content: "a\nb" },
        { role: "assistant", content: "c" },
        { role: "user", content: "d" },
      ],
      system: "S",
      temperature: 0.01,
      top_p: 0.9,
      max_output_tokens: 100,
      stop: ["END"],
      stream: true,
    });
  });

  it("maps model names to their endpoints; an unknown model is its lowercased name", () => {
    expect(chatEndpoint("ERNIE-4.0-8K")).toBe("completions_pro");
    expect(chatEndpoint("ERNIE-3.5-8K")).toBe("completions");
    expect(chatEndpoint("ERNIE-Speed-8K")).toBe("ernie_speed");
    expect(chatEndpoint("ERNIE-Novel-8K")).toBe("ernie-novel-8k");
    expect(embeddingEndpoint("Embedding-V1")).toBe("embedding-v1");
  });

  it("converts a reply and its usage; stream events split anywhere give the same text and the last usage", async () => {
    const reply = JSON.parse(String(fromErnieResponse(fixture("baidu", "chat.json"), "client-model").body)) as Record<
      string,
      any
    >;
    expect(reply).toMatchObject({
      object: "chat.completion",
      model: "client-model",
      choices: [{ message: { role: "assistant", content: "你好，我是文心一言。" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
    });
    for (const size of [1, 7, 50, 10_000]) {
      const piped = await pipeInPieces(
        fixture("baidu", "stream.sse"),
        createErnieStreamTranslator("client-model", false),
        size,
      );
      expect(piped.text).toBe("你好，我是文心一言。");
      expect(piped.finish).toEqual(["stop"]);
      expect(piped.usage).toEqual({ prompt_tokens: 9, completion_tokens: 8 });
    }
  });

  it("lifts 200 error bodies to their status, and a refused key is an authentication error that disables", () => {
    expect(baiduErrorStatus({ error_code: 110, error_msg: "Access token invalid or no longer valid" })).toBe(401);
    expect(baiduErrorStatus({ error_code: 18, error_msg: "Open api qps request limit reached" })).toBe(429);
    expect(baiduErrorStatus({ result: "ok" })).toBeUndefined();
    const refused = parseBaiduError(
      401,
      JSON.stringify({ error: "invalid_client", error_description: "unknown client id" }),
    );
    expect(refused).toEqual({
      message: "invalid_client: unknown client id",
      type: "authentication_error",
      code: "invalid_client",
    });
    expect(shouldDisableChannel(200, refused, 15)).toBe(true);
    expect(
      shouldDisableChannel(429, parseBaiduError(429, JSON.stringify({ error_code: 18, error_msg: "qps" })), 15),
    ).toBe(false);
  });
});

describe("Zhipu", () => {
  it("v3: prompt without a system role, content unquoted, the invoke/sse-invoke URL and a JWT Authorization", async () => {
    expect(
      toZhipuV3Request(
        {
          messages: [
            { role: "system", content: "S" },
            { role: "user", content: "Q" },
          ],
          temperature: 0.2,
        },
        true,
      ),
    ).toEqual({
      prompt: [
        { role: "user", content: "S" },
        { role: "assistant", content: "好的" },
        { role: "user", content: "Q" },
      ],
      temperature: 0.2,
      incremental: true,
    });
    const reply = JSON.parse(
      String(fromZhipuV3Response(fixture("zhipu", "v3-invoke.json"), "client-model").body),
    ) as Record<string, any>;
    expect(reply.choices[0].message.content).toBe("你好！我是智谱清言。\n有什么可以帮你？");
    expect(reply.usage).toEqual({ prompt_tokens: 11, completion_tokens: 13, total_tokens: 24 });
    const built = await zhipuV3Adapter.buildRequest(
      ctxFor(16, {
        key: "kid.sec",
        upstreamModel: "chatglm_pro",
        stream: true,
        body: { messages: [{ role: "user", content: "Q" }] },
      }),
    );
    expect(built.url).toBe("https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_pro/sse-invoke");
    expect(verifyZhipuJwt(built.headers.Authorization!, { kid: "sec" })).toBeUndefined();
  });

  it("v3: the SSE decoder keeps meta and multi-line data whatever the read boundaries", async () => {
    for (const size of [1, 3, 16, 10_000]) {
      const piped = await pipeInPieces(
        fixture("zhipu", "v3-stream.sse"),
        createZhipuV3StreamTranslator("client-model", false),
        size,
        createZhipuV3Decoder(),
      );
      expect(piped.text).toBe("你好！我是智谱\n清言。");
      expect(piped.finish).toEqual(["stop"]);
      expect(piped.usage).toEqual({ prompt_tokens: 11, completion_tokens: 12 });
    }
  });

  it("errors: v3 success:false bodies lifted (1002 → 401), v4 codes read as authentication errors", () => {
    expect(zhipuV3ErrorStatus({ code: 1002, msg: "Authorization Token非法", success: false })).toBe(401);
    expect(zhipuV3ErrorStatus({ code: 1302, msg: "并发数过高", success: false })).toBe(429);
    expect(zhipuV3ErrorStatus({ code: 200, success: true })).toBeUndefined();
    expect(
      parseZhipuError(401, JSON.stringify({ error: { code: "1002", message: "Authorization Token非法" } })),
    ).toEqual({ message: "Authorization Token非法", type: "authentication_error", code: "1002" });
    expect(parseZhipuError(429, JSON.stringify({ error: { code: "1113", message: "您的账户已欠费" } })).type).toBe(
      "insufficient_quota",
    );
  });
});

describe("Ali DashScope", () => {
  it("builds chat, stream and image requests with DashScope's headers and body", () => {
    const chat = aliAdapter.buildRequest(
      ctxFor(17, {
        key: "sk-x",
        other: "pdf",
        upstreamModel: "qwen-max",
        stream: true,
        body: {
          messages: [
            { role: "developer", content: "S" },
            { role: "user", content: "Q" },
          ],
          temperature: 0.7,
          seed: 3,
        },
      }),
    ) as { url: string; headers: Record<string, string>; body: string };
    expect(chat.url).toBe("https://dashscope.aliyuncs.com/api/v1/services/aigc/text-generation/generation");
    expect(chat.headers).toEqual({
      "Content-Type": "application/json",
      Authorization: "Bearer sk-x",
      Accept: "text/event-stream",
      "X-DashScope-SSE": "enable",
      "X-DashScope-Plugin": "pdf",
    });
    expect(JSON.parse(chat.body)).toEqual({
      model: "qwen-max",
      input: {
        messages: [
          { role: "system", content: "S" },
          { role: "user", content: "Q" },
        ],
      },
      parameters: { result_format: "message", incremental_output: true, temperature: 0.7, seed: 3 },
    });
    expect(toWanxTask({ prompt: "猫", size: "720x1280", n: 2 }, "wanx-v1")).toEqual({
      model: "wanx-v1",
      input: { prompt: "猫" },
      parameters: { n: 2, size: "720*1280" },
    });
  });

  it("converts replies and streams (split anywhere), usage from input_tokens/output_tokens", async () => {
    const reply = JSON.parse(String(fromDashScopeChat(fixture("ali", "chat.json"), "client-model").body)) as Record<
      string,
      any
    >;
    expect(reply.choices[0].message.content).toBe("你好，我是通义千问。");
    expect(reply.usage).toEqual({ prompt_tokens: 19, completion_tokens: 8, total_tokens: 27 });
    for (const size of [1, 9, 10_000]) {
      const piped = await pipeInPieces(
        fixture("ali", "stream.sse"),
        createDashScopeStreamTranslator("client-model", true),
        size,
      );
      expect(piped.text).toBe("你好，我是通义千问。");
      expect(piped.finish).toEqual(["stop"]);
      expect(piped.usage).toEqual({ prompt_tokens: 19, completion_tokens: 9 });
      expect(piped.chunks.at(-1)?.usage).toEqual({ prompt_tokens: 19, completion_tokens: 9, total_tokens: 28 });
    }
    expect(
      parseAliError(
        401,
        JSON.stringify({ code: "InvalidApiKey", message: "Invalid API-key provided.", request_id: "r" }),
      ),
    ).toEqual({ message: "Invalid API-key provided.", type: "authentication_error", code: "InvalidApiKey" });
  });

  it("encodes vectors as little-endian float32 base64 when the client asked for base64", () => {
    const encoded = encodeEmbedding([1, -2.5], "base64") as string;
    const bytes = Buffer.from(encoded, "base64");
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([1, -2.5]);
    expect(encodeEmbedding([1], "float")).toEqual([1]);
  });
});

describe("Tencent Hunyuan", () => {
  it("builds the exact signed request", async () => {
    vi.useFakeTimers({ now: new Date("2024-03-01T08:00:00Z") });
    const key = "1300000000|AKIDtest|secret-key";
    const built = await hunyuanAdapter.buildRequest(
      ctxFor(23, {
        key,
        upstreamModel: "hunyuan-pro",
        body: { messages: [{ role: "user", content: "Q" }], top_p: 0.5 },
      }),
    );
    const payload = '{"Model":"hunyuan-pro","Messages":[{"Role":"user","Content":"Q"}],"Stream":false,"TopP":0.5}';
    expect(built.url).toBe("https://hunyuan.tencentcloudapi.com/");
    expect(built.body).toBe(payload);
    const timestamp = Date.parse("2024-03-01T08:00:00Z") / 1000;
    const signature = tc3Signature({
      secretId: "AKIDtest",
      secretKey: "secret-key",
      host: "hunyuan.tencentcloudapi.com",
      service: "hunyuan",
      action: "ChatCompletions",
      version: "2023-09-01",
      timestamp,
      payload,
    });
    expect(built.headers).toEqual({
      "Content-Type": "application/json",
      "X-TC-Action": "ChatCompletions",
      "X-TC-Version": "2023-09-01",
      "X-TC-Timestamp": String(timestamp),
      Authorization: `TC3-HMAC-SHA256 Credential=AKIDtest/2024-03-01/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=${signature}`,
    });
    await expect(
      Promise.resolve().then(() => hunyuanAdapter.buildRequest(ctxFor(23, { key: "only|two" }))),
    ).rejects.toThrow("AppId|SecretId|SecretKey");
  });

  it("converts replies and streams; AuthFailure is lifted to 401 and disables", async () => {
    const reply = JSON.parse(
      String(fromHunyuanResponse(fixture("hunyuan", "chat.json"), "client-model").body),
    ) as Record<string, any>;
    expect(reply.choices[0].message.content).toBe("你好，我是腾讯混元。");
    expect(reply.usage).toEqual({ prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 });
    for (const size of [1, 11, 10_000]) {
      const piped = await pipeInPieces(
        fixture("hunyuan", "stream.sse"),
        createHunyuanStreamTranslator("client-model", false),
        size,
      );
      expect(piped.text).toBe("你好，我是腾讯混元。");
      expect(piped.usage).toEqual({ prompt_tokens: 14, completion_tokens: 7 });
    }
    const failure = {
      Response: {
        Error: { Code: "AuthFailure.SignatureFailure", Message: "The provided credentials could not be validated." },
        RequestId: "r",
      },
    };
    expect(hunyuanErrorStatus(failure)).toBe(401);
    expect(hunyuanErrorStatus({ Response: { Error: { Code: "LimitExceeded", Message: "x" } } })).toBe(429);
    expect(hunyuanErrorStatus(JSON.parse(fixture("hunyuan", "chat.json").toString()))).toBeUndefined();
    expect(parseHunyuanError(401, JSON.stringify(failure))).toEqual({
      message: "The provided credentials could not be validated.",
      type: "authentication_error",
      code: "AuthFailure.SignatureFailure",
    });
  });
});

describe("iFlytek Spark", () => {
  it("picks the version from other, else the model name, else v2.1; the frame names its domain", () => {
    expect(sparkVersion("v3.5", "SparkDesk-v1.1")).toBe("v3.5");
    expect(sparkVersion("", "SparkDesk-v4.0")).toBe("v4.0");
    expect(sparkVersion("", "spark-lite")).toBe("v2.1");
    expect(
      toSparkFrame(
        { messages: [{ role: "user", content: "Q" }], temperature: 0.3, max_tokens: 64, user: "u1" },
        "app1",
        "v4.0",
      ),
    ).toEqual({
      header: { app_id: "app1", uid: "u1" },
      parameter: { chat: { domain: "4.0Ultra", temperature: 0.3, max_tokens: 64 } },
      payload: { message: { text: [{ role: "user", content: "Q" }] } },
    });
  });

  it("signs the URL for the channel's host (http(s) base read as ws(s)) with the frame as the body", async () => {
    const built = await sparkAdapter.buildRequest(
      ctxFor(18, {
        key: "app1|secret1|key1",
        base_url: "http://127.0.0.1:9999",
        other: "v3.1",
        body: { messages: [{ role: "user", content: "Q" }] },
      }),
    );
    const url = new URL(built.url);
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe("ws://127.0.0.1:9999/v3.1/chat");
    const date = url.searchParams.get("date")!;
    expect(url.searchParams.get("host")).toBe("127.0.0.1:9999");
    expect(url.searchParams.get("authorization")).toBe(
      sparkAuthorization("key1", sparkSignature("secret1", "127.0.0.1:9999", date, "/v3.1/chat")),
    );
    expect(JSON.parse(String(built.body)).parameter.chat.domain).toBe("generalv3");
    const fallback = await sparkAdapter.buildRequest(ctxFor(18, { key: "a|b|c", body: {} }));
    expect(fallback.url.startsWith("wss://spark-api.xf-yun.com/v2.1/chat?")).toBe(true);
  });

  it("frames become one reply or OpenAI chunks; usage from payload.usage.text; 11200 and a refused handshake are authentication errors", async () => {
    const frames = JSON.parse(fixture("spark", "frames.json").toString()) as unknown[];
    const sse = Buffer.from(frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join(""));
    const reply = JSON.parse(
      String(fromSparkFrames(Buffer.from(JSON.stringify(frames)), "client-model").body),
    ) as Record<string, any>;
    expect(reply.choices[0].message.content).toBe("你好！我是讯飞星火认知大模型。");
    expect(reply.usage).toEqual({ prompt_tokens: 15, completion_tokens: 11, total_tokens: 26 });
    const piped = await pipeInPieces(sse, createSparkStreamTranslator("client-model", false), 13);
    expect(piped.text).toBe("你好！我是讯飞星火认知大模型。");
    expect(piped.finish).toEqual(["stop"]);
    const licence = parseSparkError(
      401,
      JSON.stringify({ header: { code: 11200, message: "授权错误：该appId没有相关授权", sid: "s", status: 2 } }),
    );
    expect(licence).toEqual({ message: "授权错误：该appId没有相关授权", type: "authentication_error", code: "11200" });
    expect(
      shouldDisableChannel(401, parseSparkError(401, JSON.stringify({ message: "HMAC signature does not match" })), 18),
    ).toBe(true);
    expect(parseSparkError(429, JSON.stringify({ header: { code: 11202, message: "秒级流控超限" } })).type).toBe(
      "xunfei_error",
    );
  });
});

describe("Spark transport", () => {
  it("refuses a link-local or metadata address before connecting, as every upstream call does", async () => {
    const { sendOverSparkSocket } = await import("~/relay/adapters/spark/spark-transport");
    const { ForbiddenUpstreamAddressError } = await import("~/utils/upstream-address");
    const request = {
      url: "ws://169.254.169.254/v2.1/chat?authorization=x",
      method: "GET" as const,
      headers: {},
      body: "{}",
    };
    await expect(
      sendOverSparkSocket(request, { connectTimeoutMs: 1_000, signal: new AbortController().signal }),
    ).rejects.toBeInstanceOf(ForbiddenUpstreamAddressError);
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      sendOverSparkSocket(
        { ...request, url: "ws://127.0.0.1:9/v2.1/chat" },
        { connectTimeoutMs: 1_000, signal: aborted.signal },
      ),
    ).rejects.toThrow("aborted");
  });
});
