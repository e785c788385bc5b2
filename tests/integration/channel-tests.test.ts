import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, newUser, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, setOption, uniqueModel, quotaOf } from "../support/relay";

let root: ApiSession;
let ok: MockUpstream;
let broken: MockUpstream;

beforeAll(async () => {
  root = await loginRoot();
  ok = await startOpenAiMock();
  broken = await startOpenAiMock();
  broken.fault = { kind: "status", status: 401, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } };
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

  it("test-all runs in the background, reports progress and re-enables auto-disabled channels that pass", async () => {
    const id = await createChannel(root, { base_url: ok.url, models: uniqueModel("t") });
    await root.call("PUT", "/api/channel/", { id, status: 2 });
    // Status 3 is what automatic disabling leaves; simulate it through a failing test.
    const flaky = await startOpenAiMock();
    flaky.fault = { kind: "status", status: 401, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } };
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
