import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, request, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { freePort } from "../support/server";
import { createChannel, mergeOption, quotaOf, setOption, tokenOf, uniqueModel, userWithToken } from "../support/relay";

let root: ApiSession;
const mocks: MockUpstream[] = [];
async function mock() {
  const m = await startOpenAiMock();
  mocks.push(m);
  return m;
}

beforeAll(async () => {
  root = await loginRoot();
});
afterAll(async () => {
  await setOption(root, "RetryTimes", "3");
  await setOption(root, "AutomaticDisableChannelEnabled", "false");
  for (const m of mocks) await m.close();
});

const chat = (key: string, model: string, extra: Record<string, unknown> = {}) =>
  request(
    "POST",
    "/v1/chat/completions",
    { model, messages: [{ role: "user", content: "hi" }], ...extra },
    { Authorization: `Bearer ${key}` },
  );

describe("token refusals (OpenAI-shaped, with the reference's messages)", () => {
  let model: string;
  beforeAll(async () => {
    model = uniqueModel("ref");
    const m = await mock();
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: m.url, models: model });
  });

  it("missing and unknown keys are 401", async () => {
    const none = await request("POST", "/v1/chat/completions", { model, messages: [] });
    expect(none.status).toBe(401);
    expect(none.json.error).toMatchObject({ type: "new_api_error" });
    // The request id is in its header, not appended to the message (decision 034).
    expect(none.json.error.message).not.toContain("request id");
    expect(none.headers.get("x-oneapi-request-id")).toMatch(/^\d{14}[0-9a-f]{12}$/);
    const unknown = await chat("sk-" + "x".repeat(48), model);
    expect(unknown.status).toBe(401);
    expect(unknown.json.error.message).toContain("无效的令牌");
  });

  it("disabled, expired and exhausted tokens are refused", async () => {
    const { user, key, tokenId } = await userWithToken(10_000);
    await user.call("PUT", "/api/token/?status_only=true", { id: tokenId, status: 2 });
    expect((await chat(key, model)).status).toBe(401);
    // Expiry must be in the future when set; wait until the server's clock is a full second past it.
    const expiry = Math.floor(Date.now() / 1000) + 2;
    const expired = await userWithToken(10_000, { expired_time: expiry });
    await new Promise((r) => setTimeout(r, Math.max(0, (expiry + 1) * 1000 - Date.now() + 50)));
    const e = await chat(expired.key, model);
    expect(e.status).toBe(401);
    expect(e.json.error.message).toContain("该令牌已过期");
    const empty = await userWithToken(10_000, { unlimited_quota: false, remain_quota: 0 });
    const x = await chat(empty.key, model);
    expect(x.status).toBe(401);
    expect(x.json.error.message).toContain("该令牌额度已用尽");
  });

  it("model limits, IP allow-list, unusable group and banned users are refused", async () => {
    const limited = await userWithToken(10_000, { model_limits_enabled: true, model_limits: "some-other-model" });
    const l = await chat(limited.key, model);
    expect(l.status).toBe(403);
    expect(l.json.error.message).toContain(`该令牌无权访问模型 ${model}`);
    const ip = await userWithToken(10_000, { allow_ips: "10.9.8.0/24" });
    const outside = await chat(ip.key, model, {});
    expect(outside.status).toBe(403);
    expect(outside.json.error.message).toContain("您的 IP 不在令牌允许访问的列表中");
    const inside = await request(
      "POST",
      "/v1/chat/completions",
      { model, messages: [{ role: "user", content: "hi" }] },
      { Authorization: `Bearer ${ip.key}`, "X-Forwarded-For": "10.9.8.77" },
    );
    expect(inside.status).toBe(200);
    const banned = await userWithToken(10_000);
    await root.call("POST", "/api/user/manage", { id: banned.user.userId, action: "disable" });
    const b = await chat(banned.key, model);
    expect(b.status).toBe(403);
    expect(b.json.error.message).toContain("用户已被封禁");
  });

  it("no channel is 503, an unpriced model is refused by name, a poor user is 403", async () => {
    const { key } = await userWithToken(10_000);
    const none = await chat(key, "model-nobody-serves");
    expect(none.status).toBe(503);
    expect(none.json.error.message).toContain("无可用渠道");
    const unpriced = uniqueModel("free");
    const m = await mock();
    await createChannel(root, { base_url: m.url, models: unpriced });
    const u = await chat(key, unpriced);
    expect(u.status).toBe(400);
    expect(u.json.error.message).toContain(`模型 ${unpriced} 倍率或价格未配置`);
    expect(m.requests).toHaveLength(0);
    const poor = await userWithToken(0);
    const p = await chat(poor.key, model);
    expect(p.status).toBe(403);
    expect(p.json.error.code).toBe("insufficient_user_quota");
  });

  it("bad JSON is a 400 in the OpenAI shape", async () => {
    const { key } = await userWithToken(1000);
    const res = await request("POST", "/v1/chat/completions", "{oops", {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
    });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe("invalid_request_error");
  });
});

describe("failover, auto-disable and status mapping", () => {
  it("retries are on by default (3): a dead channel beside a working one at the same priority fails no call", async () => {
    const options = (await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[];
    expect(options.find((o) => o.key === "RetryTimes")?.value).toBe("3");
    const model = uniqueModel("dead");
    const good = await mock();
    const deadUrl = `http://127.0.0.1:${await freePort()}`; // nothing listens there: connection refused
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: deadUrl, models: model, priority: 0 });
    await createChannel(root, { base_url: good.url, models: model, priority: 0 });
    const { user, key } = await userWithToken(100_000);
    const results = [];
    for (let i = 0; i < 8; i += 1) results.push(await chat(key, model));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(good.requests).toHaveLength(8);
    const self = await quotaOf(user);
    expect(self.request_count).toBe(8);
    expect(self.quota).toBe(100_000 - self.used_quota);
  });

  it("retries on a lower tier and never re-tries the channel that failed", async () => {
    const model = uniqueModel("fo");
    const bad = await mock();
    const good = await mock();
    bad.fault = { kind: "status", status: 500, body: { error: { message: "boom", type: "server_error", code: null } } };
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: bad.url, models: model, priority: 10 });
    await createChannel(root, { base_url: good.url, models: model, priority: 0 });
    await setOption(root, "RetryTimes", "3");
    const { user, key } = await userWithToken(100_000);
    const res = await chat(key, model);
    expect(res.status).toBe(200);
    expect(bad.requests).toHaveLength(1);
    expect(good.requests).toHaveLength(1);
    expect((await quotaOf(user)).request_count).toBe(1);
    await setOption(root, "RetryTimes", "0");
    const noRetry = await chat(key, model);
    expect(noRetry.status).toBe(500);
    expect(noRetry.json.error.message).toContain("boom");
  });

  it("a 401 from upstream auto-disables the channel at once when enabled", async () => {
    const model = uniqueModel("ad");
    const m = await mock();
    m.fault = {
      kind: "status",
      status: 401,
      body: {
        error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
      },
    };
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    const id = await createChannel(root, { base_url: m.url, models: model, auto_ban: 1 });
    await setOption(root, "AutomaticDisableChannelEnabled", "true");
    const { user, key } = await userWithToken(100_000);
    const first = await chat(key, model);
    // The channel's key was refused, not the caller's: the gateway's failure (decision 034).
    expect(first.status).toBe(502);
    expect(first.json.error).toMatchObject({ type: "upstream_error", code: "channel_credentials_refused" });
    const channel = (await root.call("GET", `/api/channel/${id}`)).json.data;
    expect(channel.status).toBe(3);
    expect(JSON.parse(channel.other_info).status_reason).toContain("Incorrect API key");
    const second = await chat(key, model);
    expect(second.status).toBe(503);
    expect(m.requests).toHaveLength(1);
    expect((await quotaOf(user)).quota).toBe(100_000);
  });

  it("an upstream that never answers is given up after RELAY_TIMEOUT (3 s in tests): 504, call aborted, nothing charged", async () => {
    const model = uniqueModel("hang");
    const m = await mock();
    m.fault = { kind: "hang" };
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: m.url, models: model });
    const { user, key } = await userWithToken(100_000);
    const started = Date.now();
    const res = await chat(key, model);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(504);
    expect(res.json.error).toMatchObject({
      message: expect.stringContaining("上游响应超时"),
      code: "do_request_failed",
    });
    expect(elapsed).toBeGreaterThanOrEqual(2900);
    expect(elapsed).toBeLessThan(6000);
    await new Promise((r) => setTimeout(r, 100));
    expect(m.aborted).toBe(1);
    const self = await quotaOf(user);
    expect([self.quota, self.used_quota, self.request_count]).toEqual([100_000, 0, 0]);
  });

  it("a stream whose upstream never sends headers is given up after RELAY_TIMEOUT and fails over; alone it is a 504", async () => {
    const model = uniqueModel("hangs");
    const dead = await mock();
    const good = await mock();
    dead.fault = { kind: "hang" };
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    const deadId = await createChannel(root, { base_url: dead.url, models: model, priority: 10 });
    await createChannel(root, { base_url: good.url, models: model, priority: 0 });
    await setOption(root, "RetryTimes", "3");
    const { user, key } = await userWithToken(100_000);
    const started = Date.now();
    const res = await streamChat(key, model);
    const text = await res.text();
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(text).toContain('"role":"assistant"');
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(2900);
    expect(elapsed).toBeLessThan(6000);
    expect(dead.requests).toHaveLength(1);
    expect(good.requests).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(dead.aborted).toBe(1);
    const self = await quotaOf(user);
    expect(self.request_count).toBe(1);
    expect(self.quota).toBe(100_000 - self.used_quota);
    expect((await root.call("GET", `/api/channel/${deadId}`)).json.data.used_quota).toBe(0);

    // With no other channel the client gets the non-stream path's answer.
    await setOption(root, "RetryTimes", "0");
    const aloneStarted = Date.now();
    const alone = await streamChat(key, model);
    const aloneElapsed = Date.now() - aloneStarted;
    expect(alone.status).toBe(504);
    expect(((await alone.json()) as { error: { message: string } }).error.message).toContain("上游响应超时");
    expect(aloneElapsed).toBeLessThan(6000);
    await setOption(root, "RetryTimes", "3");
  });

  it("a reply whose connection drops half way is retried on the next tier, never answered as a 500", async () => {
    const model = uniqueModel("cut");
    const cut = await mock();
    const good = await mock();
    cut.fault = { kind: "drop-mid-body" };
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: cut.url, models: model, priority: 10 });
    await createChannel(root, { base_url: good.url, models: model, priority: 0 });
    const { user, key } = await userWithToken(100_000);
    await setOption(root, "RetryTimes", "0");
    const alone = await chat(key, model);
    expect(alone.status).toBe(502);
    expect(alone.json.error.code).toBe("do_request_failed");
    await setOption(root, "RetryTimes", "2");
    const retried = await chat(key, model);
    await setOption(root, "RetryTimes", "0");
    expect(retried.status).toBe(200);
    expect(retried.json.choices[0].message.content).toBeTruthy();
    expect(cut.requests).toHaveLength(2);
    expect(good.requests).toHaveLength(1);
    const self = await quotaOf(user);
    expect(self.request_count).toBe(1);
    expect(self.quota).toBe(100_000 - self.used_quota);
  });

  it("status_code_mapping rewrites the status the client sees", async () => {
    const model = uniqueModel("map");
    const m = await mock();
    m.fault = {
      kind: "status",
      status: 400,
      body: { error: { message: "context too long", type: "invalid_request_error", code: "context_length_exceeded" } },
    };
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: m.url, models: model, status_code_mapping: JSON.stringify({ 400: "500" }) });
    const { key } = await userWithToken(100_000);
    const res = await chat(key, model);
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe("context_length_exceeded");
  });
});

/** A fresh model on a mock whose stream events come `gapMs` apart, and a user with 100 000 quota. */
async function slowStreamSetup(gapMs: number) {
  const model = uniqueModel("slow");
  const m = await mock();
  m.fault = { kind: "slow-stream", gapMs };
  await mergeOption(root, "ModelRatio", { [model]: 1 });
  await createChannel(root, { base_url: m.url, models: model });
  return { m, model, ...(await userWithToken(100_000)) };
}

const streamChat = (key: string, model: string, signal?: AbortSignal) =>
  fetch(`${baseUrl()}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
    signal,
  });

describe("streams and money under pressure", () => {
  it("a payer edited while its stream runs is not held up: its next call goes through at once", async () => {
    const { model: slowModel, key, user, tokenId } = await slowStreamSetup(400);
    const fast = uniqueModel("fast");
    await mergeOption(root, "ModelRatio", { [fast]: 1 });
    await createChannel(root, { base_url: (await mock()).url, models: fast });
    const res = await streamChat(key, slowModel);
    const reader = res.body!.getReader();
    await reader.read(); // the stream holds quota from the token's lease
    const token = await tokenOf(user, tokenId);
    expect(
      (
        await user.call("PUT", "/api/token/", {
          id: tokenId,
          name: "renamed",
          remain_quota: token.remain_quota,
          unlimited_quota: true,
          expired_time: -1,
        })
      ).json.success,
    ).toBe(true);
    const started = Date.now();
    expect((await chat(key, fast)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    // The stream was still running meanwhile, and both calls are billed.
    let chunksAfter = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunksAfter += 1;
    expect(chunksAfter).toBeGreaterThan(0);
    const self = await quotaOf(user);
    expect(self.request_count).toBe(2);
    expect(self.quota).toBe(100_000 - self.used_quota);
  });

  it("a client that goes away stops the upstream call and is charged only for what it received", async () => {
    const { m, user, key, model } = await slowStreamSetup(400);
    const controller = new AbortController();
    const res = await streamChat(key, model, controller.signal);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await new Promise((r) => setTimeout(r, 600));
    expect(m.aborted).toBe(1);
    const self = await quotaOf(user);
    expect(self.quota).toBeGreaterThan(100_000 - 100);
    expect(self.quota + self.used_quota).toBe(100_000);
  });

  it("an upstream that goes quiet mid-stream is cut after STREAMING_TIMEOUT (2 s in tests) with an error event and no [DONE], logged as cut", async () => {
    const { m, user, key, model } = await slowStreamSetup(6000);
    const started = Date.now();
    const res = await streamChat(key, model);
    expect(res.status).toBe(200);
    const text = await res.text();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(5000);
    expect(text).toContain('"role":"assistant"');
    // The error event ends the stream: a [DONE] after it would pass the reply off as whole.
    expect(text).not.toContain("[DONE]");
    expect(text).toMatch(
      /data: \{"error":\{"message":"[^"]+","type":"upstream_error","code":"stream_idle_timeout","param":null\}\}\n\n$/,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(m.aborted).toBe(1);
    const self = await quotaOf(user);
    expect(self.quota + self.used_quota).toBe(100_000);
    const logs = (await user.call("GET", "/api/log/self?type=2")).json.data.items as { quota: number; other: string }[];
    expect(logs).toHaveLength(1);
    expect(logs[0]!.quota).toBe(self.used_quota);
    expect(JSON.parse(logs[0]!.other).stream_cut).toBe("idle_timeout");
  });

  it("with quota for k calls, 5k parallel calls: at most k succeed and nothing goes negative", async () => {
    const model = uniqueModel("race");
    const m = await mock();
    await mergeOption(root, "ModelPrice", { [model]: 0.002 }); // 1000 quota per call
    await createChannel(root, { base_url: m.url, models: model });
    const k = 4;
    const { user, key, tokenId } = await userWithToken(k * 1000, { unlimited_quota: false, remain_quota: 1_000_000 });
    const results = await Promise.all(Array.from({ length: 5 * k }, () => chat(key, model)));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeLessThanOrEqual(k);
    expect(ok).toBeGreaterThan(0);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.json.error).toBeTruthy();
    const self = await quotaOf(user);
    expect(self.quota).toBeGreaterThanOrEqual(0);
    expect(self.quota).toBe(k * 1000 - ok * 1000);
    expect(self.used_quota).toBe(ok * 1000);
    expect((await tokenOf(user, tokenId)).remain_quota).toBe(1_000_000 - ok * 1000);

    const tight = await userWithToken(1_000_000, { unlimited_quota: false, remain_quota: 2000 });
    const burst = await Promise.all(Array.from({ length: 10 }, () => chat(tight.key, model)));
    expect(burst.filter((r) => r.status === 200).length).toBeLessThanOrEqual(2);
    expect((await tokenOf(tight.user, tight.tokenId)).remain_quota).toBeGreaterThanOrEqual(0);
  });

  it("a token balance edited while the gateway holds a slice of it takes effect at once, and exactly", async () => {
    const model = uniqueModel("edit");
    const m = await mock();
    await mergeOption(root, "ModelPrice", { [model]: 0.002 }); // 1000 quota per call
    await createChannel(root, { base_url: m.url, models: model });
    const { user, key, tokenId } = await userWithToken(1_000_000, { unlimited_quota: false, remain_quota: 100_000 });
    expect((await chat(key, model)).status).toBe(200); // the node now leases a slice of the token
    const token = await tokenOf(user, tokenId);
    expect(token.remain_quota).toBe(99_000);
    // The owner empties the token: the next call is refused, the slice does not keep it alive.
    expect(
      (await user.call("PUT", "/api/token/", { id: tokenId, name: token.name, remain_quota: 0, expired_time: -1 })).json
        .success,
    ).toBe(true);
    const refused = await chat(key, model);
    expect([401, 403]).toContain(refused.status);
    expect(refused.json.error.message).toContain("额度已用尽");
    expect((await tokenOf(user, tokenId)).remain_quota).toBe(0);
    // Refilled to 5000: five calls fit, the sixth does not, and the balance ends at exactly 0.
    expect(
      (await user.call("PUT", "/api/token/", { id: tokenId, name: token.name, remain_quota: 5000, expired_time: -1 }))
        .json.success,
    ).toBe(true);
    const calls = [];
    for (let i = 0; i < 6; i += 1) calls.push((await chat(key, model)).status);
    expect(calls.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect([401, 403]).toContain(calls[5]);
    expect((await tokenOf(user, tokenId)).remain_quota).toBe(0);
    expect((await quotaOf(user)).quota).toBe(1_000_000 - 6000);
  });
});
