import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, newUser, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { freePort } from "../support/server";
import { createChannel, setOption, uniqueModel, quotaOf } from "../support/relay";

let root: ApiSession;
let ok: MockUpstream;
let broken: MockUpstream;

beforeAll(async () => {
  root = await loginRoot();
  ok = await startOpenAiMock();
  broken = await startOpenAiMock();
  broken.fault = {
    kind: "status",
    status: 401,
    body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } },
  };
});
afterAll(async () => {
  await setOption(root, "AutomaticDisableChannelEnabled", "false");
  await setOption(root, "AutomaticEnableChannelEnabled", "false");
  await ok.close();
  await broken.close();
});

describe("channel tests and balances", () => {
  it("tests one channel with a real 1-token call, records the time and charges nobody", async () => {
    const model = uniqueModel("t");
    const id = await createChannel(root, { base_url: ok.url, models: model });
    const before = await quotaOf(root);
    const res = await root.call("GET", `/api/channel/test/${id}`);
    expect(res.json).toMatchObject({ success: true, message: "" });
    expect(typeof res.json.time).toBe("number");
    const sent = JSON.parse(ok.requests.at(-1)!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({ model, max_tokens: 1, messages: [{ role: "user", content: "hi" }] });
    const channel = (await root.call("GET", `/api/channel/${id}`)).json.data;
    expect(channel.test_time).toBeGreaterThan(0);
    expect(channel.response_time).toBeGreaterThanOrEqual(0);
    expect((await quotaOf(root)).quota).toBe(before.quota);
  });

  it("a failing test reports the upstream message and auto-disables when enabled", async () => {
    const id = await createChannel(root, { base_url: broken.url, models: uniqueModel("t") });
    await setOption(root, "AutomaticDisableChannelEnabled", "true");
    const res = await root.call("GET", `/api/channel/test/${id}`);
    expect(res.json.success).toBe(false);
    expect(res.json.message).toContain("Incorrect API key");
    expect((await root.call("GET", `/api/channel/${id}`)).json.data.status).toBe(3);
    await setOption(root, "AutomaticDisableChannelEnabled", "false");
  });

  it("a failed test (refused, error status, error body, timeout) says so with its message, stays on the channel and counts for auto-disable", async () => {
    const testOf = async (id: number) => {
      const res = await root.call("GET", `/api/channel/test/${id}`);
      const channel = (await root.call("GET", `/api/channel/${id}`)).json.data;
      return {
        json: res.json,
        status: channel.status as number,
        testError: JSON.parse(channel.other_info || "{}").test_error as string | undefined,
      };
    };
    const upstream = await startOpenAiMock();
    try {
      await setOption(root, "AutomaticDisableChannelEnabled", "true");
      // Connection refused: nothing listens on the port.
      const refused = await createChannel(root, {
        base_url: `http://127.0.0.1:${await freePort()}`,
        models: uniqueModel("t"),
        auto_ban: 1,
      });
      const r = await testOf(refused);
      expect(r.json).toMatchObject({ success: false, message: expect.stringContaining("请求上游地址失败") });
      expect(r.testError).toBe(r.json.message);
      expect(r.status).toBe(3);
      // The same failure on a channel without auto_ban: shown, never disabled.
      const kept = await createChannel(root, {
        base_url: `http://127.0.0.1:${await freePort()}`,
        models: uniqueModel("t"),
        auto_ban: 0,
      });
      expect(await testOf(kept)).toMatchObject({
        json: { success: false },
        status: 1,
        testError: expect.stringContaining("请求上游地址失败"),
      });

      // A 200 whose body is an error: a failure, disabled when the reference's rules say so.
      const quota = await createChannel(root, { base_url: upstream.url, models: uniqueModel("t"), auto_ban: 1 });
      upstream.fault = {
        kind: "status",
        status: 200,
        body: {
          error: {
            message: "You exceeded your current quota, please check your plan",
            type: "insufficient_quota",
            code: "insufficient_quota",
          },
        },
      };
      expect(await testOf(quota)).toMatchObject({
        json: { success: false, message: expect.stringContaining("You exceeded your current quota") },
        status: 3,
      });
      const overloaded = await createChannel(root, { base_url: upstream.url, models: uniqueModel("t"), auto_ban: 1 });
      upstream.fault = {
        kind: "status",
        status: 200,
        body: { error: { message: "The model is overloaded", type: "server_error" } },
      };
      expect(await testOf(overloaded)).toMatchObject({
        json: { success: false, message: "The model is overloaded" },
        status: 1,
        testError: "The model is overloaded",
      });
      upstream.fault = { kind: "status", status: 200, body: "<html>please sign in</html>" };
      expect(await testOf(overloaded)).toMatchObject({
        json: { success: false, message: expect.stringContaining("上游返回了无法识别的响应") },
        status: 1,
      });
      upstream.fault = {
        kind: "status",
        status: 500,
        body: { error: { message: "internal error", type: "server_error" } },
      };
      expect(await testOf(overloaded)).toMatchObject({
        json: { success: false, message: "internal error" },
        status: 1,
        testError: "internal error",
      });

      // An upstream that never answers: given up after RELAY_TIMEOUT (3 s in tests).
      const hanging = await createChannel(root, { base_url: upstream.url, models: uniqueModel("t"), auto_ban: 1 });
      upstream.fault = { kind: "hang" };
      const started = Date.now();
      const h = await testOf(hanging);
      expect(Date.now() - started).toBeLessThan(6000);
      expect(h).toMatchObject({
        json: { success: false, message: expect.stringContaining("上游响应超时") },
        status: 3,
      });

      // A passing test clears the failure.
      upstream.fault = undefined;
      expect(await testOf(overloaded)).toMatchObject({ json: { success: true }, status: 1, testError: undefined });
    } finally {
      await setOption(root, "AutomaticDisableChannelEnabled", "false");
      upstream.fault = undefined;
      await upstream.close();
    }
  });

  it("test-all runs in the background, reports progress and re-enables auto-disabled channels that pass", async () => {
    const id = await createChannel(root, { base_url: ok.url, models: uniqueModel("t") });
    await root.call("PUT", "/api/channel/", { id, status: 2 });
    // Status 3 is what automatic disabling leaves; simulate it through a failing test.
    const flaky = await startOpenAiMock();
    flaky.fault = {
      kind: "status",
      status: 401,
      body: {
        error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
      },
    };
    const autoId = await createChannel(root, { base_url: flaky.url, models: uniqueModel("t") });
    await setOption(root, "AutomaticDisableChannelEnabled", "true");
    await root.call("GET", `/api/channel/test/${autoId}`);
    expect((await root.call("GET", `/api/channel/${autoId}`)).json.data.status).toBe(3);
    flaky.fault = undefined;
    await setOption(root, "AutomaticDisableChannelEnabled", "false");
    await setOption(root, "AutomaticEnableChannelEnabled", "true");
    const start = await root.call("GET", "/api/channel/test");
    expect(start.json.success).toBe(true);
    let progress: any;
    for (let i = 0; i < 100; i += 1) {
      progress = (await root.call("GET", "/api/channel/test?progress=1")).json.data;
      if (!progress.running && progress.finishedAt) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(progress.running).toBe(false);
    expect(progress.done).toBe(progress.total);
    expect((await root.call("GET", `/api/channel/${autoId}`)).json.data.status).toBe(1);
    expect((await root.call("GET", `/api/channel/${id}`)).json.data.status).toBe(2);
    await flaky.close();
  });

  it("refreshes an OpenAI channel's balance from the billing endpoints; others are refused clearly", async () => {
    const id = await createChannel(root, { base_url: ok.url, models: uniqueModel("b") });
    const res = await root.call("GET", `/api/channel/update_balance/${id}`);
    expect(res.json).toMatchObject({ success: true, balance: 99.5 });
    expect((await root.call("GET", `/api/channel/${id}`)).json.data.balance).toBe(99.5);
    const claude = await createChannel(root, { type: 14, base_url: ok.url, models: uniqueModel("b") });
    expect((await root.call("GET", `/api/channel/update_balance/${claude}`)).json.success).toBe(false);
  });

  it("is admin only", async () => {
    const user = await newUser();
    expect((await user.call("GET", "/api/channel/test")).json.message).toBe("无权进行此操作，权限不足");
    expect((await user.call("GET", "/api/channel/update_balance")).json.message).toBe("无权进行此操作，权限不足");
  });
});
