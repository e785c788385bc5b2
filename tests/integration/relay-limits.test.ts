import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { baseUrl, billingWritten, loginRoot, type ApiSession } from "../support/api";
import { createChannel, mergeOption, quotaOf, setOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * Limits as a caller and an operator meet them: a token's requests and tokens per minute, a
 * user's model requests per period, and a channel's keys (several per channel, each with a cap
 * on requests in flight and per minute; a key its upstream refuses is set aside alone). A
 * refused call is a 429 in the OpenAI shape with the headers clients back off by, and holds no
 * quota.
 */
let root: ApiSession;
const upstreams: MockUpstream[] = [];

beforeAll(async () => {
  root = await loginRoot();
});
afterAll(async () => {
  await setOption(root, "ModelRequestRateLimitEnabled", "false");
  for (const upstream of upstreams) await upstream.close();
});

async function mock(options: { apiKey?: string } = {}): Promise<MockUpstream> {
  const upstream = await startOpenAiMock(options);
  upstreams.push(upstream);
  return upstream;
}

function chat(key: string, model: string) {
  return fetch(`${baseUrl()}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: "user", content: "hi" }] }),
    signal: AbortSignal.timeout(20_000),
  });
}

async function tokenWithLimits(model: string, limits: { rpm_limit?: number; tpm_limit?: number }) {
  const made = await userWithToken(50_000_000, { unlimited_quota: false, remain_quota: 5_000_000, ...limits });
  const stored = (await made.user.call("GET", `/api/token/${made.tokenId}`)).json.data;
  expect(stored).toMatchObject({ rpm_limit: limits.rpm_limit ?? 0, tpm_limit: limits.tpm_limit ?? 0 });
  return { ...made, model };
}

/** A model of its own (no other test routes it), priced at ratio 1. */
async function pricedModel(prefix: string): Promise<string> {
  const model = uniqueModel(prefix);
  await mergeOption(root, "ModelRatio", { [model]: 1 });
  return model;
}

/** What the user paid equals what the logs say, and only served calls were logged. */
async function expectChargesMatchLogs(user: ApiSession, served: number) {
  await billingWritten();
  const self = await quotaOf(user);
  const logs = (await user.call("GET", "/api/log/self/?p=1&page_size=100&type=2")).json.data;
  const items = (Array.isArray(logs) ? logs : logs.items) as { quota: number }[];
  expect(items).toHaveLength(served);
  expect(self.used_quota).toBe(items.reduce((sum, log) => sum + log.quota, 0));
  expect(self.quota + self.used_quota).toBe(50_000_000);
}

describe("a token's limits", () => {
  it("rpm_limit 3 lets exactly 3 of 8 concurrent calls through; the rest get a 429 with Retry-After and hold nothing", async () => {
    const upstream = await mock();
    const model = await pricedModel("rpm");
    await createChannel(root, { base_url: upstream.url, models: model });
    const { user, key } = await tokenWithLimits(model, { rpm_limit: 3 });
    const replies = await Promise.all(Array.from({ length: 8 }, () => chat(key, model)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    const body = (await refused[0]!.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: "requests", code: "rate_limit_exceeded" });
    expect(String(body.error.message)).toContain("RPM 3");
    const retryAfter = Number(refused[0]!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused[0]!.headers.get("x-ratelimit-limit-requests")).toBe("3");
    expect(refused[0]!.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    expect(refused[0]!.headers.get("x-ratelimit-reset-requests")).toMatch(/^(\d+m)?\d+s$/);
    // The upstream saw only the admitted calls.
    expect(upstream.requests).toHaveLength(3);
    await expectChargesMatchLogs(user, 3);
  });

  it("tpm_limit refuses the next call once the tokens of the last minute reach it", async () => {
    const upstream = await mock();
    const model = await pricedModel("tpm");
    await createChannel(root, { base_url: upstream.url, models: model });
    // The mock's reply bills 78 tokens (61 + 17).
    const { user, key } = await tokenWithLimits(model, { tpm_limit: 100 });
    expect((await chat(key, model)).status).toBe(200);
    expect((await chat(key, model)).status).toBe(200);
    await billingWritten();
    const refused = await chat(key, model);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { type: string } }).error.type).toBe("tokens");
    expect(refused.headers.get("x-ratelimit-limit-tokens")).toBe("100");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectChargesMatchLogs(user, 2);
  });
});

describe("a user's model requests per period (ModelRequestRateLimit options)", () => {
  it("counts every request against Count and the successful ones against SuccessCount", async () => {
    const upstream = await mock();
    const model = await pricedModel("mrl");
    await createChannel(root, { base_url: upstream.url, models: model });
    const { user, key } = await tokenWithLimits(model, {});
    const other = await tokenWithLimits(model, {});
    await setOption(root, "ModelRequestRateLimitDurationMinutes", "1");
    await setOption(root, "ModelRequestRateLimitCount", "3");
    await setOption(root, "ModelRequestRateLimitSuccessCount", "0");
    await setOption(root, "ModelRequestRateLimitEnabled", "true");
    try {
      // A failed request counts toward Count too.
      upstream.fault = {
        kind: "status",
        status: 400,
        body: { error: { message: "bad", type: "invalid_request_error", param: null, code: null } },
      };
      expect((await chat(key, model)).status).toBe(400);
      upstream.fault = undefined;
      expect((await chat(key, model)).status).toBe(200);
      expect((await chat(key, model)).status).toBe(200);
      const refused = await chat(key, model);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
        "1分钟内最多请求3次，包括失败次数",
      );
      // Per user: another user is not affected.
      expect((await chat(other.key, model)).status).toBe(200);

      await setOption(root, "ModelRequestRateLimitCount", "0");
      await setOption(root, "ModelRequestRateLimitSuccessCount", "1");
      const fresh = await tokenWithLimits(model, {});
      upstream.fault = {
        kind: "status",
        status: 400,
        body: { error: { message: "bad", type: "invalid_request_error", param: null, code: null } },
      };
      expect((await chat(fresh.key, model)).status).toBe(400);
      upstream.fault = undefined;
      expect((await chat(fresh.key, model)).status).toBe(200);
      await billingWritten();
      const overSuccesses = await chat(fresh.key, model);
      expect(overSuccesses.status).toBe(429);
      expect(((await overSuccesses.json()) as { error: { message: string } }).error.message).toContain(
        "1分钟内最多请求1次",
      );
    } finally {
      upstream.fault = undefined;
      await setOption(root, "ModelRequestRateLimitEnabled", "false");
    }
    await expectChargesMatchLogs(user, 2);
  });
});

/** A channel holding several keys (one per line), with per-key caps. */
async function multiKeyChannel(
  fields: Record<string, unknown>,
  mode: "random" | "polling" = "random",
): Promise<number> {
  return createChannel(root, { ...fields, mode: "multi_to_single", multi_key_mode: mode });
}

async function channelJson(id: number) {
  return (await root.call("GET", `/api/channel/${id}`)).json.data as {
    status: number;
    channel_info: { multi_key_status_list: Record<string, number> };
  };
}

describe("a channel's keys", () => {
  it("uses every key of a multi-key channel (polling: in turn) and sets a refused key aside without disabling the channel", async () => {
    const upstream = await mock({ apiKey: "sk-good-2" });
    const model = await pricedModel("mk");
    await setOption(root, "AutomaticDisableChannelEnabled", "true");
    try {
      const id = await multiKeyChannel(
        { base_url: upstream.url, models: model, key: "sk-good-1\nsk-bad\nsk-good-2", auto_ban: 1 },
        "polling",
      );
      const { key } = await tokenWithLimits(model, {});
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await chat(key, model)).status);
      const used = upstream.requests.map((r) => r.headers.authorization);
      // One call each, in turn: the whole key text is never sent as one key.
      expect(new Set(used)).toEqual(new Set(["Bearer sk-good-1", "Bearer sk-bad", "Bearer sk-good-2"]));
      // The mock accepts only sk-good-2: the two others were refused (401) and each set aside alone.
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      const info = await channelJson(id);
      expect(info.status).toBe(1);
      expect(info.channel_info.multi_key_status_list).toEqual({ "0": 3, "1": 3 });
      // From now on only the good key is used, and every call is served.
      upstream.requests.length = 0;
      for (let i = 0; i < 4; i += 1) expect((await chat(key, model)).status).toBe(200);
      expect(new Set(upstream.requests.map((r) => r.headers.authorization))).toEqual(new Set(["Bearer sk-good-2"]));
    } finally {
      await setOption(root, "AutomaticDisableChannelEnabled", "false");
    }
  });

  it("a key at its concurrency cap sends the call to the next channel; with none left it is a 429 and nothing is called", async () => {
    const capped = await mock();
    const spare = await mock();
    const model = await pricedModel("cc");
    await createChannel(root, { base_url: capped.url, models: model, priority: 10, key_max_concurrency: 1 });
    const spareId = await createChannel(root, { base_url: spare.url, models: model, priority: 0 });
    const { key, user } = await tokenWithLimits(model, {});
    capped.fault = { kind: "slow", delayMs: 600 };
    const replies = await Promise.all(Array.from({ length: 3 }, () => chat(key, model)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(capped.requests).toHaveLength(1);
    expect(spare.requests).toHaveLength(2);
    // Only the capped channel left: one call in flight, the other refused without calling anybody.
    await root.call("PUT", "/api/channel/", { id: spareId, status: 2 });
    capped.requests.length = 0;
    const [first, second] = await Promise.all([chat(key, model), chat(key, model)]);
    expect([first!.status, second!.status].sort()).toEqual([200, 429]);
    const refused = first!.status === 429 ? first! : second!;
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("channel_keys_at_limit");
    expect(capped.requests).toHaveLength(1);
    // The slot is given back when the call ends.
    capped.fault = undefined;
    expect((await chat(key, model)).status).toBe(200);
    await expectChargesMatchLogs(user, 5);
  });

  it("a key at its requests-per-minute cap sends the rest of the minute's calls to the next channel", async () => {
    const capped = await mock();
    const spare = await mock();
    const model = await pricedModel("kr");
    await createChannel(root, { base_url: capped.url, models: model, priority: 10, key_rpm_limit: 2 });
    await createChannel(root, { base_url: spare.url, models: model, priority: 0 });
    const { key } = await tokenWithLimits(model, {});
    for (let i = 0; i < 5; i += 1) expect((await chat(key, model)).status).toBe(200);
    expect(capped.requests).toHaveLength(2);
    expect(spare.requests).toHaveLength(3);
  });
});
