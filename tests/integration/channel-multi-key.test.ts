import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, fakeIp, newAdmin, newUser, type ApiSession } from "../support/api";

/**
 * Multi-key channels through the channel API: one channel holding every key line, its
 * channel_info as the reference's object, per-key caps, and the per-key manage endpoint (the
 * channel goes when its last key goes and comes back with a key). Keys never leave the server.
 */
let admin: ApiSession;
beforeAll(async () => {
  admin = await newAdmin();
});

const unique = () => `mk-${Math.random().toString(36).slice(2, 8)}`;
const KEYS = ["sk-multi-key-aaaa-1111-first", "sk-multi-key-bbbb-2222-second", "sk-multi-key-cccc-3333-third"];

async function createMulti(body: Record<string, unknown> = {}, multiKeyMode = "random") {
  const name = unique();
  const res = await admin.call("POST", "/api/channel/", {
    mode: "multi_to_single",
    multi_key_mode: multiKeyMode,
    channel: { type: 1, name, key: KEYS.join("\n"), models: "gpt-4o", group: "default", ...body },
  });
  const found = (await admin.call("GET", `/api/channel/search?keyword=${name}`)).json.data as any[];
  return { res, name, found, channel: found[0] };
}

const manage = (channel_id: number, action: string, key_index?: number) =>
  admin.call("POST", "/api/channel/multi_key/manage", { channel_id, action, key_index });
const get = async (id: number) => (await admin.call("GET", `/api/channel/${id}`)).json.data;

describe("multi_to_single", () => {
  it("makes one channel holding every key line, with channel_info as an object and the caps", async () => {
    const { res, found, channel } = await createMulti({ key_max_concurrency: 4, key_rpm_limit: 60 }, "polling");
    expect(res.json.success).toBe(true);
    expect(found).toHaveLength(1);
    expect(channel.channel_info).toEqual({
      is_multi_key: true,
      multi_key_size: 3,
      multi_key_mode: "polling",
      multi_key_status_list: {},
      multi_key_disabled_reason: {},
      multi_key_disabled_time: {},
      multi_key_polling_index: 0,
    });
    expect(channel).toMatchObject({ key_max_concurrency: 4, key_rpm_limit: 60, key: "" });
    for (const path of [
      `/api/channel/${channel.id}`,
      "/api/channel/?p=0&page_size=100",
      `/api/channel/search?keyword=${channel.name}`,
    ]) {
      const body = JSON.stringify((await admin.call("GET", path)).json);
      for (const key of KEYS) expect(body, path).not.toContain(key);
    }
    const listed = ((await admin.call("GET", "/api/channel/?p=0&page_size=100")).json.data as any[]).find(
      (c) => c.id === channel.id,
    );
    expect(listed.channel_info).toMatchObject({ is_multi_key: true, multi_key_size: 3 });
  });

  it("the batch and top-level shapes still make one channel per line; a one-key channel says so in channel_info", async () => {
    const name = unique();
    expect(
      (
        await admin.call("POST", "/api/channel/", {
          mode: "batch",
          channel: { type: 1, name, key: "sk-b1\nsk-b2", models: "gpt-4o" },
        })
      ).json.success,
    ).toBe(true);
    const batch = (await admin.call("GET", `/api/channel/search?keyword=${name}`)).json.data as any[];
    expect(batch).toHaveLength(2);
    expect(batch[0].channel_info).toMatchObject({ is_multi_key: false, multi_key_size: 0 });
    const top = unique();
    expect(
      (
        await admin.call("POST", "/api/channel/", {
          type: 1,
          name: top,
          key: "sk-t1\nsk-t2",
          models: "gpt-4o",
          key_rpm_limit: 5,
        })
      ).json.success,
    ).toBe(true);
    const topRows = (await admin.call("GET", `/api/channel/search?keyword=${top}`)).json.data as any[];
    expect(topRows.map((c) => c.key_rpm_limit)).toEqual([5, 5]);
  });

  it("validates keys per line, the caps' range and the modes", async () => {
    const refused = (body: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      admin.call("POST", "/api/channel/", {
        mode: "multi_to_single",
        ...extra,
        channel: { type: 15, name: unique(), key: "ak|sk\nak|sk", models: "ERNIE-4.0-8K", ...body },
      });
    expect((await refused({ key: "ak|sk\nonly-one-part" })).json).toMatchObject({
      success: false,
      message: expect.stringContaining("APIKey|SecretKey"),
    });
    expect((await refused({ key_max_concurrency: -1 })).json).toEqual({
      success: false,
      message: "每个密钥最大并发数必须在 0 到 1000000 之间（0 表示不限制）",
    });
    expect((await refused({ key_rpm_limit: 1_000_001 })).json).toEqual({
      success: false,
      message: "每个密钥每分钟请求数必须在 0 到 1000000 之间（0 表示不限制）",
    });
    expect((await refused({ key_rpm_limit: "many" })).json.success).toBe(false);
    expect((await refused({}, { mode: "everything" })).json.success).toBe(false);
    expect((await refused({}, { multi_key_mode: "sometimes" })).json.success).toBe(false);
    expect((await refused({}, { mode: "single" })).json).toMatchObject({
      success: false,
      message: expect.stringContaining("单个渠道只能填写一个密钥"),
    });
    const vertexKey = JSON.stringify({
      type: "service_account",
      client_email: "x@y.iam.gserviceaccount.com",
      private_key: "k",
    });
    expect((await refused({ type: 41, key: vertexKey, models: "gemini-1.5-pro" })).json).toMatchObject({
      success: false,
      message: expect.stringContaining("Vertex AI"),
    });
    const { channel } = await createMulti();
    expect(
      (await admin.call("PUT", "/api/channel/", { id: channel.id, key_max_concurrency: 2_000_000 })).json.success,
    ).toBe(false);
    expect((await get(channel.id)).key_max_concurrency).toBe(0);
  });

  it("a one-key channel's caps are set and changed the same way", async () => {
    const name = unique();
    await admin.call("POST", "/api/channel/", {
      type: 1,
      name,
      key: "sk-one",
      models: "gpt-4o",
      key_max_concurrency: 1,
    });
    const [channel] = (await admin.call("GET", `/api/channel/search?keyword=${name}`)).json.data;
    expect(channel).toMatchObject({ key_max_concurrency: 1, key_rpm_limit: 0 });
    expect(
      (await admin.call("PUT", "/api/channel/", { id: channel.id, key_max_concurrency: 0, key_rpm_limit: 30 })).json
        .success,
    ).toBe(true);
    expect(await get(channel.id)).toMatchObject({ key_max_concurrency: 0, key_rpm_limit: 30 });
  });
});

describe("POST /api/channel/multi_key/manage", () => {
  it("disables keys one by one; the last one disables the channel, enabling a key brings it back", async () => {
    const { channel } = await createMulti();
    expect((await manage(channel.id, "disable_key", 1)).json).toEqual({ success: true, message: "密钥 #1 已禁用" });
    const info = (await get(channel.id)).channel_info;
    expect(info.multi_key_status_list).toEqual({ 1: 2 });
    expect(info.multi_key_disabled_reason).toEqual({ 1: "手动禁用" });
    expect(info.multi_key_disabled_time["1"]).toBeGreaterThan(0);
    expect((await get(channel.id)).status).toBe(1);
    await manage(channel.id, "disable_key", 0);
    const last = await manage(channel.id, "disable_key", 2);
    expect(last.json).toMatchObject({ success: true, message: expect.stringContaining("渠道已自动禁用") });
    const off = await get(channel.id);
    expect(off.status).toBe(3);
    expect(JSON.parse(off.other_info).status_reason).toContain("所有密钥均已禁用");
    expect((await manage(channel.id, "enable_key", 2)).json).toMatchObject({
      success: true,
      message: expect.stringContaining("渠道已重新启用"),
    });
    const back = await get(channel.id);
    expect(back.status).toBe(1);
    expect(back.channel_info.multi_key_status_list).toEqual({ 0: 2, 1: 2 });
    expect((await manage(channel.id, "enable_all_keys")).json).toEqual({ success: true, message: "已启用 2 个密钥" });
    expect((await get(channel.id)).channel_info.multi_key_status_list).toEqual({});
  });

  it("a channel disabled by hand stays disabled when a key is enabled", async () => {
    const { channel } = await createMulti();
    await manage(channel.id, "disable_key", 0);
    await admin.call("PUT", "/api/channel/", { id: channel.id, status: 2 });
    await manage(channel.id, "enable_key", 0);
    expect((await get(channel.id)).status).toBe(2);
  });

  it("a new key set replaces the keys and resets their statuses; a blank key keeps them", async () => {
    const { channel } = await createMulti();
    await manage(channel.id, "disable_key", 2);
    expect(
      (await admin.call("PUT", "/api/channel/", { id: channel.id, key: "", name: `${channel.name}-r` })).json.success,
    ).toBe(true);
    expect((await get(channel.id)).channel_info).toMatchObject({ multi_key_size: 3, multi_key_status_list: { 2: 2 } });
    expect(
      (
        await admin.call("PUT", "/api/channel/", {
          id: channel.id,
          key: "sk-new-1\n\nsk-new-2\n",
          multi_key_mode: "polling",
        })
      ).json.success,
    ).toBe(true);
    expect((await get(channel.id)).channel_info).toMatchObject({
      is_multi_key: true,
      multi_key_size: 2,
      multi_key_mode: "polling",
      multi_key_status_list: {},
    });
    expect((await manage(channel.id, "disable_key", 2)).json).toEqual({
      success: false,
      message: "该渠道没有这个密钥",
    });
  });

  it("refuses what it cannot do, and non-admins", async () => {
    const name = unique();
    await admin.call("POST", "/api/channel/", { type: 1, name, key: "sk-one", models: "gpt-4o" });
    const [single] = (await admin.call("GET", `/api/channel/search?keyword=${name}`)).json.data;
    expect((await manage(single.id, "disable_key", 0)).json).toEqual({
      success: false,
      message: "该渠道不是多密钥渠道",
    });
    expect((await manage(999_999_999, "disable_key", 0)).json.success).toBe(false);
    const { channel } = await createMulti();
    expect((await manage(channel.id, "disable_key")).json).toEqual({
      success: false,
      message: "请指定密钥序号 key_index",
    });
    expect((await manage(channel.id, "delete_key", 0)).json.success).toBe(false);
    expect((await manage(channel.id, "disable_key", 3)).json).toEqual({
      success: false,
      message: "该渠道没有这个密钥",
    });
    const user = await newUser();
    const refused = await user.call("POST", "/api/channel/multi_key/manage", {
      channel_id: channel.id,
      action: "disable_key",
      key_index: 0,
    });
    expect(refused.json).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    expect((await get(channel.id)).channel_info.multi_key_status_list).toEqual({});
  });
});

describe("the console's edit page of a multi-key channel", () => {
  it("shows each key's hint only, and a plain form post disables one key", async () => {
    const { channel } = await createMulti();
    const page = async () => {
      const res = await fetch(`${baseUrl()}/channel/edit/${channel.id}`, {
        headers: { Cookie: admin.cookie, "X-Forwarded-For": fakeIp() },
      });
      return res.text();
    };
    const html = await page();
    for (const key of KEYS) expect(html).not.toContain(key);
    expect(html).toContain("sk-…irst");
    expect(html).toContain("sk-…cond");
    const post = await fetch(`${baseUrl()}/channel/edit/${channel.id}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: admin.cookie,
        "X-Forwarded-For": fakeIp(),
      },
      body: new URLSearchParams({ intent: "disable-key", key_index: "1" }),
      redirect: "manual",
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe(`/channel/edit/${channel.id}`);
    expect((await get(channel.id)).channel_info.multi_key_status_list).toEqual({ 1: 2 });
  });
});
