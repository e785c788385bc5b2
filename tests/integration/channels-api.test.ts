import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, newAdmin, newUser, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";

let admin: ApiSession;
let upstream: MockUpstream;
const SECRET = "sk-upstream-secret-never-shown-123";

beforeAll(async () => {
  admin = await newAdmin();
  upstream = await startOpenAiMock({ apiKey: SECRET });
});
afterAll(async () => upstream.close());

const unique = () => `ch-${Math.random().toString(36).slice(2, 8)}`;

async function create(body: Record<string, unknown>) {
  return admin.call("POST", "/api/channel/", {
    type: 1,
    key: SECRET,
    models: "gpt-4o,gpt-4o-mini",
    group: "default",
    ...body,
  });
}

async function findByName(name: string) {
  const res = await admin.call("GET", `/api/channel/search?keyword=${encodeURIComponent(name)}`);
  return res.json.data as any[];
}

async function abilities(channelId: number) {
  const res = await admin.call("GET", `/api/channel/abilities?channel_id=${channelId}`);
  return (res.json.data as any[])
    .map((a) => `${a.group}/${a.model}/${a.enabled ? "on" : "off"}/${a.priority}/${a.weight}`)
    .sort();
}

describe("channel CRUD and the abilities index", () => {
  it("creates a channel whose abilities cover every group × model, and never returns the key", async () => {
    const name = unique();
    const res = await create({ name, group: "default,vip", priority: 5, weight: 3, base_url: `${upstream.url}/` });
    expect(res.json.success).toBe(true);
    const [channel] = await findByName(name);
    expect(channel).toMatchObject({
      name,
      type: 1,
      status: 1,
      priority: 5,
      weight: 3,
      base_url: upstream.url,
      group: "default,vip",
      models: "gpt-4o,gpt-4o-mini",
    });
    expect(channel.key).toBe("");
    expect(JSON.stringify(channel)).not.toContain(SECRET);
    expect(await abilities(channel.id)).toEqual(
      ["default/gpt-4o/on/5/3", "default/gpt-4o-mini/on/5/3", "vip/gpt-4o/on/5/3", "vip/gpt-4o-mini/on/5/3"].sort(),
    );
    for (const path of [
      `/api/channel/${channel.id}`,
      "/api/channel/?p=0&page_size=100",
      `/api/channel/search?keyword=${name}`,
    ]) {
      const body = JSON.stringify((await admin.call("GET", path)).json);
      expect(body, path).not.toContain(SECRET);
    }
  });

  it("batch create makes one channel per key line; Vertex keeps its JSON whole", async () => {
    const name = unique();
    await create({ name, key: "sk-a\n\n  sk-b  \nsk-c\n" });
    expect(await findByName(name)).toHaveLength(3);
    const vertexName = unique();
    const vertexKey = JSON.stringify(
      {
        type: "service_account",
        client_email: "x@y.iam.gserviceaccount.com",
        private_key: "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n",
      },
      null,
      2,
    );
    const vertex = await create({ name: vertexName, type: 41, key: vertexKey, models: "gemini-1.5-pro" });
    expect(vertex.json.success).toBe(true);
    const [created] = await findByName(vertexName);
    expect(created.other).toContain("us-central1");
  });

  it("validates as the product describes", async () => {
    expect((await create({ name: "" })).json).toEqual({ success: false, message: "请填写渠道名称和渠道密钥！" });
    expect((await create({ name: unique(), key: "" })).json).toEqual({
      success: false,
      message: "请填写渠道名称和渠道密钥！",
    });
    expect((await create({ name: unique(), models: "" })).json).toEqual({
      success: false,
      message: "请至少选择一个模型！",
    });
    expect((await create({ name: unique(), model_mapping: "[1,2]" })).json).toEqual({
      success: false,
      message: "模型映射必须是合法的 JSON 格式！",
    });
    expect((await create({ name: unique(), model_mapping: "{bad" })).json.success).toBe(false);
    expect((await create({ name: unique(), status_code_mapping: "400" })).json.success).toBe(false);
    expect((await create({ name: unique(), priority: -1000 })).json.success).toBe(false);
    expect((await create({ name: unique(), type: 15, key: "only-one-part" })).json.message).toContain(
      "APIKey|SecretKey",
    );
    expect((await create({ name: unique(), type: 18, key: "a|b" })).json.success).toBe(false);
    expect((await create({ name: unique(), type: 23, key: "a|b|c" })).json.success).toBe(true);
    expect((await create({ name: unique(), type: 33, key: "ak|sk" })).json.success).toBe(false);
    expect((await create({ name: unique(), type: 41, key: "{not json" })).json.success).toBe(false);
    const negative = unique();
    await create({ name: negative, weight: -7 });
    expect((await findByName(negative))[0].weight).toBe(0);
    const azure = unique();
    await create({ name: azure, type: 3, base_url: "https://example.openai.azure.com" });
    expect((await findByName(azure))[0].other).toBe("2023-06-01-preview");
  });

  it("a link-local or cloud-metadata base URL is refused at create and at update, loopback and private ones are kept", async () => {
    const metadata = "http://169.254.169.254/latest/meta-data";
    for (const base_url of [
      metadata,
      "http://[::ffff:169.254.169.254]",
      "http://0xA9FEA9FE",
      "http://[fd00:ec2::254]",
      "http://metadata.google.internal",
    ]) {
      const name = unique();
      const refused = await create({ name, base_url });
      expect(refused.json.success, base_url).toBe(false);
      expect(refused.json.message, base_url).toContain("代理地址不能是链路本地或云元数据地址");
      expect(await findByName(name)).toHaveLength(0);
    }
    const name = unique();
    expect((await create({ name, base_url: "http://127.0.0.1:11434" })).json.success).toBe(true);
    const [channel] = await findByName(name);
    const update = await admin.call("PUT", "/api/channel/", { id: channel.id, base_url: metadata });
    expect(update.json).toMatchObject({ success: false, message: expect.stringContaining("169.254.169.254") });
    expect((await admin.call("GET", `/api/channel/${channel.id}`)).json.data.base_url).toBe("http://127.0.0.1:11434");
    expect(
      (await admin.call("PUT", "/api/channel/", { id: channel.id, base_url: "http://192.168.10.5:8000" })).json.success,
    ).toBe(true);
  });

  it("an IPv6 base URL with a zone id (link-local or any other scope) is refused at create and at update", async () => {
    for (const base_url of [
      "http://[fe80::1%25eth0]",
      "http://[fe80::a9fe:a9fe%25en0]:8080/v1",
      "http://[fd00::1%25eth0]",
      "http://[::1%25lo]:11434",
    ]) {
      const name = unique();
      const refused = await create({ name, base_url });
      expect(refused.json, base_url).toMatchObject({ success: false, message: expect.stringContaining("区域标识") });
      expect(await findByName(name)).toHaveLength(0);
    }
    const name = unique();
    expect((await create({ name, base_url: "http://[::1]:11434" })).json.success).toBe(true);
    const [channel] = await findByName(name);
    const update = await admin.call("PUT", "/api/channel/", { id: channel.id, base_url: "http://[fe80::1%25eth0]" });
    expect(update.json).toMatchObject({ success: false, message: expect.stringContaining("区域标识") });
    expect((await admin.call("GET", `/api/channel/${channel.id}`)).json.data.base_url).toBe("http://[::1]:11434");
  });

  it("abilities follow updates of models, groups, priority and status", async () => {
    const name = unique();
    await create({ name });
    const [channel] = await findByName(name);
    const put = await admin.call("PUT", "/api/channel/", {
      id: channel.id,
      models: "gpt-4o",
      group: "vip",
      priority: 9,
      weight: 2,
    });
    expect(put.json.success).toBe(true);
    expect(put.json.data.key).toBe("");
    expect(await abilities(channel.id)).toEqual(["vip/gpt-4o/on/9/2"]);
    await admin.call("PUT", "/api/channel/", { id: channel.id, status: 2 });
    expect(await abilities(channel.id)).toEqual(["vip/gpt-4o/off/9/2"]);
    const disabled = (await admin.call("GET", `/api/channel/${channel.id}`)).json.data;
    expect(disabled.status).toBe(2);
    expect(JSON.parse(disabled.other_info).status_reason).toBeTruthy();
    await admin.call("PUT", "/api/channel/", { id: channel.id, status: 1 });
    expect(await abilities(channel.id)).toEqual(["vip/gpt-4o/on/9/2"]);
  });

  it("a blank key on update keeps the old key (the upstream still accepts it)", async () => {
    const name = unique();
    await create({ name, base_url: upstream.url });
    const [channel] = await findByName(name);
    await admin.call("PUT", "/api/channel/", { id: channel.id, key: "", name: `${name}-renamed` });
    const models = await admin.call("GET", `/api/channel/fetch_models/${channel.id}`);
    expect(models.json).toEqual({
      success: true,
      message: "",
      data: ["gpt-4o", "gpt-4o-mini", "text-embedding-3-small"],
    });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("fetch_models is refused clearly for a type that lists no models", async () => {
    const name = unique();
    await create({ name, type: 14, key: "sk-ant-x", models: "claude-3-5-sonnet-20241022" });
    const [channel] = await findByName(name);
    expect((await admin.call("GET", `/api/channel/fetch_models/${channel.id}`)).json).toEqual({
      success: false,
      message: "该渠道类型不支持获取模型列表",
    });
  });

  it("delete, batch delete, delete disabled and fix report counts and keep abilities in step", async () => {
    const a = unique();
    const b = unique();
    const c = unique();
    await create({ name: a });
    await create({ name: b });
    await create({ name: c });
    const [ca] = await findByName(a);
    const [cb] = await findByName(b);
    const [cc] = await findByName(c);
    expect((await admin.call("DELETE", `/api/channel/${ca.id}/`)).json.success).toBe(true);
    expect(await abilities(ca.id)).toEqual([]);
    expect((await admin.call("POST", "/api/channel/batch", { ids: [cb.id, 999999] })).json.data).toBe(1);
    expect(await abilities(cb.id)).toEqual([]);
    expect((await admin.call("POST", "/api/channel/batch", { ids: [] })).json).toEqual({
      success: false,
      message: "无效的参数：ids: 请先选择要删除的通道！",
    });
    await admin.call("PUT", "/api/channel/", { id: cc.id, status: 2 });
    const removed = (await admin.call("DELETE", "/api/channel/disabled")).json.data as number;
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await findByName(c)).toHaveLength(0);
    expect(await abilities(cc.id)).toEqual([]);
    const fixed = await admin.call("POST", "/api/channel/fix");
    expect(fixed.json.success).toBe(true);
    expect(typeof fixed.json.data).toBe("number");
  });

  it("copies a channel with its settings and abilities", async () => {
    const name = unique();
    await create({ name, group: "vip", models: "gpt-4o" });
    const [channel] = await findByName(name);
    const copy = await admin.call("POST", `/api/channel/copy/${channel.id}`);
    expect(copy.json).toMatchObject({ success: true, message: "渠道复制成功" });
    const [copied] = await findByName(`${name}_复制`);
    expect(copied.id).toBe(copy.json.data.id);
    expect(await abilities(copied.id)).toEqual(["vip/gpt-4o/on/0/0"]);
  });

  it("lists with paging and sorting, and searches by group and model", async () => {
    const hi = unique();
    await create({ name: hi, priority: 500, group: "svip", models: "model-only-here" });
    const list = await admin.call("GET", "/api/channel/?p=0&page_size=2");
    expect(list.json.data).toHaveLength(2);
    expect(list.json.data[0].name).toBe(hi);
    const byId = await admin.call("GET", "/api/channel/?p=0&page_size=100&id_sort=true");
    const ids = (byId.json.data as any[]).map((c) => c.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(
      (await admin.call("GET", "/api/channel/search?group=svip&model=model-only-here")).json.data.map(
        (c: any) => c.name,
      ),
    ).toEqual([hi]);
    expect((await admin.call("GET", "/api/channel/search?model=model-only")).json.data).toHaveLength(0);
  });

  it("serves the type catalogue", async () => {
    const models = await admin.call("GET", "/api/models");
    expect(models.json.data["1"]).toContain("gpt-4o");
    expect(models.json.data["36"]).toEqual(["suno_music", "suno_lyrics"]);
    const list = await admin.call("GET", "/api/channel/models");
    expect(list.json.data[0]).toMatchObject({ object: "model", created: 1626777600 });
  });
});

describe("channel guards and users' models", () => {
  it("ordinary users cannot reach any channel endpoint", async () => {
    const user = await newUser();
    for (const [method, path] of [
      ["GET", "/api/channel/"],
      ["GET", "/api/channel/search?keyword=x"],
      ["POST", "/api/channel/"],
      ["PUT", "/api/channel/"],
      ["DELETE", "/api/channel/disabled"],
      ["POST", "/api/channel/fix"],
      ["GET", "/api/channel/abilities"],
      ["GET", "/api/channel/1"],
    ] as const) {
      const res = await user.call(method, path, method === "GET" || method === "DELETE" ? undefined : {});
      expect(res.json, `${method} ${path}`).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    }
  });

  it("/api/user/models lists what the user's group reaches through enabled abilities", async () => {
    const root = await loginRoot();
    const model = `m-${Math.random().toString(36).slice(2, 8)}`;
    await root.call("POST", "/api/channel/", { type: 1, key: "k", name: unique(), models: model, group: "default" });
    const user = await newUser();
    expect((await user.call("GET", "/api/user/models")).json.data).toContain(model);
    const [channel] = (await root.call("GET", `/api/channel/search?model=${model}`)).json.data;
    await root.call("PUT", "/api/channel/", { id: channel.id, status: 2 });
    expect((await user.call("GET", "/api/user/models")).json.data).not.toContain(model);
  });
});
