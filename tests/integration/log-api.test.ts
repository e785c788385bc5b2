import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, newUser, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/** What a user (and an admin) sees of relayed calls through the log API, on both databases. */
let root: ApiSession;
let upstream: MockUpstream;
let model: string;
let channelId: number;
let caller: Awaited<ReturnType<typeof userWithToken>>;

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock();
  model = uniqueModel("logapi");
  await mergeOption(root, "ModelRatio", { [model]: 2 });
  await mergeOption(root, "CompletionRatio", { [model]: 3 });
  channelId = await createChannel(root, { base_url: upstream.url, models: model });
  caller = await userWithToken(1_000_000);
  // Three calls: two plain, one streamed. (The caller's log also holds the system log of its
  // new-user gift: ALL_OWN_LOGS counts it.)
  await caller.client.chat.completions.create({ model, messages: [{ role: "user", content: "one" }] });
  await caller.client.chat.completions.create({ model, messages: [{ role: "user", content: "two" }] });
  const stream = await caller.client.chat.completions.create({
    model,
    stream: true,
    messages: [{ role: "user", content: "three" }],
  });
  for await (const _ of stream) void _;
});
afterAll(async () => {
  await upstream?.close();
});

/** The caller's three calls plus the system log of the new-user gift registration wrote. */
const ALL_OWN_LOGS = 4;

describe("GET /api/log/self", () => {
  it("lists the caller's own calls newest first, pages from 1, and keeps the operator's channel chain out", async () => {
    const first = await caller.user.call("GET", "/api/log/self?p=1&page_size=2&type=2");
    expect(first.json.success).toBe(true);
    expect(first.json.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(first.json.data.items).toHaveLength(2);
    const second = await caller.user.call("GET", "/api/log/self?p=2&page_size=2&type=2");
    expect(second.json.data.items).toHaveLength(1);
    const items = [...first.json.data.items, ...second.json.data.items];
    expect(items.map((i: { is_stream: boolean }) => i.is_stream)).toEqual([true, false, false]);
    for (const item of items) {
      expect(item).toMatchObject({
        type: 2,
        model_name: model,
        token_name: "relay",
        username: caller.user.username,
        channel: channelId,
        user_id: caller.user.userId,
      });
      expect(item.quota).toBe((item.prompt_tokens + item.completion_tokens * 3) * 2);
      const other = JSON.parse(item.other);
      expect(other.model_ratio).toBe(2);
      expect(other).not.toHaveProperty("admin_info");
      expect(item).not.toHaveProperty("channel_name");
    }
    // The logged charges add up to what the user's balance lost.
    const self = await quotaOf(caller.user);
    expect(items.reduce((sum: number, i: { quota: number }) => sum + i.quota, 0)).toBe(self.used_quota);
  });

  it("filters by model, token name and time, and another user sees none of it", async () => {
    expect((await caller.user.call("GET", `/api/log/self?model_name=${model}`)).json.data.total).toBe(3);
    expect((await caller.user.call("GET", "/api/log/self?model_name=no-such-model")).json.data.total).toBe(0);
    expect((await caller.user.call("GET", "/api/log/self?token_name=other")).json.data.total).toBe(0);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await caller.user.call("GET", `/api/log/self?start_timestamp=${future}`)).json.data.total).toBe(0);
    const stranger = await newUser();
    const theirs = await stranger.call("GET", `/api/log/self?model_name=${model}`);
    expect(theirs.json).toMatchObject({ success: true, data: { total: 0, items: [] } });
    // A user's own view ignores an attempt to look at someone else by name.
    expect((await stranger.call("GET", `/api/log/self?username=${caller.user.username}`)).json.data.total).toBe(0);
  });

  it("states quota spent and the last minute's requests and tokens", async () => {
    const stat = await caller.user.call("GET", "/api/log/self/stat?type=2");
    const self = await quotaOf(caller.user);
    expect(stat.json.data).toMatchObject({ quota: self.used_quota, rpm: 3 });
    const items = (await caller.user.call("GET", "/api/log/self?page_size=10")).json.data.items as {
      prompt_tokens: number;
      completion_tokens: number;
    }[];
    expect(stat.json.data.tpm).toBe(items.reduce((sum, i) => sum + i.prompt_tokens + i.completion_tokens, 0));
  });

  it("answers absurd filters and pages with an empty or unfiltered list, never a server error", async () => {
    for (const query of [
      "start_timestamp=1e30",
      "end_timestamp=-1e400",
      "type=99999999999",
      "p=1e20",
      "page_size=abc&p=-3",
      "model_name=%27%3B--",
    ]) {
      const res = await caller.user.call("GET", `/api/log/self?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.json.success, query).toBe(true);
    }
    expect((await caller.user.call("GET", "/api/log/self?p=1e20")).json.data.items).toEqual([]);
    expect((await caller.user.call("GET", "/api/log/self?type=99999999999")).json.data.total).toBe(ALL_OWN_LOGS);
    const stat = await root.call("GET", "/api/log/stat?channel=99999999999&start_timestamp=9e99");
    expect(stat.json.success).toBe(true);
  });

  it("refuses anonymous callers", async () => {
    const res = await fetch(`${(await import("../support/api")).baseUrl()}/api/log/self`);
    expect((await res.json()) as unknown).toMatchObject({ success: false });
  });
});

describe("admin log API", () => {
  it("lets an admin see every user's logs with the channel chain and name, filtered by user and channel", async () => {
    const res = await root.call("GET", `/api/log/?username=${caller.user.username}&channel=${channelId}&p=1`);
    expect(res.json.data.total).toBe(3);
    const item = res.json.data.items[0];
    expect(JSON.parse(item.other).admin_info.use_channel).toEqual([String(channelId)]);
    expect(item.channel_name).toMatch(/^relay-/);
    const stat = await root.call("GET", `/api/log/stat?username=${caller.user.username}`);
    expect(stat.json.data.quota).toBe((await quotaOf(caller.user)).used_quota);
  });

  it("keeps ordinary users out of the admin list, stat and deletion", async () => {
    for (const [method, path] of [
      ["GET", "/api/log/"],
      ["GET", "/api/log/stat"],
      ["DELETE", "/api/log/?target_timestamp=1"],
    ] as const) {
      const res = await caller.user.call(method, path);
      expect(res.json.success, `${method} ${path}`).toBe(false);
    }
    expect((await root.call("GET", `/api/log/?username=${caller.user.username}`)).json.data.total).toBe(ALL_OWN_LOGS);
  });

  it("deletes only logs older than the target time and refuses a malformed one", async () => {
    for (const target of ["yesterday", "1e30", "1.5", ""]) {
      const bad = await root.call("DELETE", `/api/log/?target_timestamp=${target}`);
      expect(bad.json, target).toMatchObject({ success: false, message: expect.stringContaining("target_timestamp") });
    }
    const none = await root.call("DELETE", "/api/log/?target_timestamp=1000");
    expect(none.json).toMatchObject({ success: true, data: 0 });
    expect((await caller.user.call("GET", "/api/log/self")).json.data.total).toBe(ALL_OWN_LOGS);
  });
});

describe("GET /api/log/token", () => {
  it("gives a chat app the token's own logs by its key alone, and nothing for a wrong key", async () => {
    const { baseUrl } = await import("../support/api");
    const res = await fetch(`${baseUrl()}/api/log/token?key=${encodeURIComponent(caller.key)}`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await res.json()) as { success: boolean; data: { token_id: number; other: string }[] };
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(3);
    for (const item of body.data) {
      expect(item.token_id).toBe(caller.tokenId);
      expect(JSON.parse(item.other)).not.toHaveProperty("admin_info");
    }
    const wrong = (await (await fetch(`${baseUrl()}/api/log/token?key=sk-${"x".repeat(48)}`)).json()) as {
      success: boolean;
      message: string;
    };
    expect(wrong).toEqual({ success: false, message: "无效的令牌" });
  });
});

describe("the user column of the reference's console", () => {
  it("a channel-test row (user 1) is written and listed with root's user name", async () => {
    expect((await root.call("GET", `/api/channel/test/${channelId}`)).json.success).toBe(true);
    const res = await root.call("GET", `/api/log/?p=1&page_size=50&channel=${channelId}`);
    const row = res.json.data.items.find((i: { token_name: string }) => i.token_name === "模型测试");
    expect(row).toMatchObject({ user_id: 1, username: "root" });
    // Stored under the name, so filtering by user name finds it too.
    const byName = await root.call("GET", `/api/log/?p=1&page_size=50&channel=${channelId}&username=root`);
    expect(byName.json.data.items.some((i: { token_name: string }) => i.token_name === "模型测试")).toBe(true);
    const self = await root.call("GET", "/api/log/self?p=1&page_size=100");
    for (const item of self.json.data.items as { username: string }[]) expect(item.username).toBe("root");
  });
});
