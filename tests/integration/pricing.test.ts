import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, newAdmin, newUser, request, uniqueName, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, setOption, uniqueModel } from "../support/relay";

/**
 * The public price list (`GET /api/pricing`, `/pricing`) and the chat pages (`/chat`,
 * `/chat/{id}`, `/chat2link`). Every option changed here is put back at the end.
 */
let root: ApiSession;
let upstream: MockUpstream;
const saved = new Map<string, string>();

async function optionValue(key: string): Promise<string> {
  const all = (await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[];
  return all.find((o) => o.key === key)?.value ?? "";
}

/** Sets an option for this file, remembering the first value to put back afterwards. */
async function setForFile(key: string, value: string) {
  if (!saved.has(key)) saved.set(key, await optionValue(key));
  await setOption(root, key, value);
}

async function mergeForFile(key: string, entries: Record<string, number | string>) {
  if (!saved.has(key)) saved.set(key, await optionValue(key));
  await mergeOption(root, key, entries as Record<string, number>);
}

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock();
});
afterAll(async () => {
  for (const [key, value] of saved) await setOption(root, key, value);
  await upstream?.close();
});

type Pricing = {
  model_name: string;
  quota_type: number;
  model_ratio: number;
  model_price: number;
  owner_by: string;
  completion_ratio: number;
  enable_groups: string[];
};

async function pricingAs(caller: ApiSession | undefined) {
  const res = caller ? await caller.call("GET", "/api/pricing") : await request("GET", "/api/pricing");
  expect(res.status).toBe(200);
  expect(res.json.success).toBe(true);
  const data = res.json.data as Pricing[];
  return { json: res.json, data, find: (model: string) => data.find((p) => p.model_name === model) };
}

/** The page's HTML with React's text separators removed and entities decoded, for plain matching. */
async function page(path: string, caller?: ApiSession): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(baseUrl() + path, { headers: caller ? { Cookie: caller.cookie } : {}, redirect: "manual" });
  const html = (await res.text())
    .replaceAll("<!-- -->", "")
    .replaceAll("&amp;", "&")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'");
  return { status: res.status, html, headers: res.headers };
}

function pricingRow(html: string, model: string): string {
  const start = html.indexOf(`data-model="${model}"`);
  expect(start, `row for ${model}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</tr>", start));
}

/** A dollar figure the page shows in a cell of the row, by its test id. */
function shownDollars(row: string, testId: string): number {
  const match = new RegExp(`data-testid="${testId}">[^$<]*\\$([0-9.]+)`).exec(row);
  expect(match, testId).not.toBeNull();
  return Number(match![1]);
}

/** A user in `group` holding quota, with one unlimited token; returns the session and key. */
async function userInGroup(group: string) {
  const user = await newUser();
  const edited = await root.call("PUT", "/api/user/", { id: user.userId, group, quota: 50_000_000 });
  expect(edited.json.success).toBe(true);
  const created = await user.call("POST", "/api/token/", {
    name: "pricing",
    remain_quota: 0,
    expired_time: -1,
    unlimited_quota: true,
  });
  expect(created.json.success).toBe(true);
  const token = (await user.call("GET", "/api/token/")).json.data[0];
  const key = (await user.call("GET", `/api/token/${token.id}/key`)).json.data.key as string;
  return { user, key, tokenId: token.id as number };
}

describe("GET /api/pricing", () => {
  it("answers visitors, users, admins and root in the reference's shape: data plus a top-level group_ratio", async () => {
    const model = uniqueModel("shape");
    await mergeForFile("ModelRatio", { [model]: 2.5 });
    await mergeForFile("CompletionRatio", { [model]: 3 });
    await createChannel(root, { base_url: upstream.url, models: model });
    const user = await newUser();
    const admin = await newAdmin();
    for (const caller of [undefined, user, admin, root]) {
      const { json, find } = await pricingAs(caller);
      expect(Object.keys(json).sort()).toEqual(["data", "group_ratio", "message", "success", "usable_group"]);
      expect(json.group_ratio).toMatchObject({ default: expect.any(Number) });
      expect(find(model)).toEqual({
        model_name: model,
        quota_type: 0,
        model_ratio: 2.5,
        model_price: 0,
        owner_by: "",
        completion_ratio: 3,
        cache_ratio: 1,
        create_cache_ratio: 1,
        enable_groups: ["default"],
      });
    }
  });

  it("shows a per-call model as quota_type 1 with its price, and an option change at once", async () => {
    const model = uniqueModel("percall");
    await mergeForFile("ModelPrice", { [model]: 0.02 });
    await createChannel(root, { base_url: upstream.url, models: model });
    expect((await pricingAs(undefined)).find(model)).toMatchObject({
      quota_type: 1,
      model_price: 0.02,
      model_ratio: 0,
      completion_ratio: 0,
    });
    await mergeForFile("ModelPrice", { [model]: 0.05 });
    expect((await pricingAs(undefined)).find(model)).toMatchObject({ quota_type: 1, model_price: 0.05 });
  });

  it("lists only models of enabled channels, with the groups of enabled channels", async () => {
    const onlyDisabled = uniqueModel("off");
    const both = uniqueModel("both");
    await mergeForFile("ModelRatio", { [onlyDisabled]: 1, [both]: 1 });
    const off = await createChannel(root, {
      base_url: upstream.url,
      models: `${onlyDisabled},${both}`,
      group: "default,vip",
    });
    await createChannel(root, { base_url: upstream.url, models: both, group: "default" });
    expect((await pricingAs(undefined)).find(onlyDisabled)?.enable_groups).toEqual(["default", "vip"]);
    expect((await root.call("PUT", "/api/channel/", { id: off, status: 2 })).json.success).toBe(true);
    for (const caller of [undefined, root]) {
      const { find } = await pricingAs(caller);
      expect(find(onlyDisabled)).toBeUndefined();
      expect(find(both)?.enable_groups).toEqual(["default"]);
    }
  });

  it("lists a group-restricted model with its groups only; a private group shows to admins alone", async () => {
    const vipOnly = uniqueModel("vip");
    const privateOnly = uniqueModel("priv");
    const privateGroup = uniqueName("pg");
    await mergeForFile("ModelRatio", { [vipOnly]: 1, [privateOnly]: 1 });
    await mergeForFile("GroupRatio", { [privateGroup]: 0.5 });
    await createChannel(root, { base_url: upstream.url, models: vipOnly, group: "vip" });
    await createChannel(root, { base_url: upstream.url, models: privateOnly, group: privateGroup });
    const user = await newUser();
    for (const caller of [undefined, user]) {
      const { json, find } = await pricingAs(caller);
      expect(find(vipOnly)?.enable_groups).toEqual(["vip"]);
      expect(find(privateOnly)).toBeUndefined();
      expect(json.group_ratio[privateGroup]).toBeUndefined();
    }
    const admin = await newAdmin();
    for (const caller of [admin, root]) {
      const { json, find } = await pricingAs(caller);
      expect(find(privateOnly)?.enable_groups).toEqual([privateGroup]);
      expect(json.group_ratio[privateGroup]).toBe(0.5);
    }
    // A member of the private group sees it: it is their own.
    const { user: member } = await userInGroup(privateGroup);
    const { json, find } = await pricingAs(member);
    expect(find(privateOnly)?.enable_groups).toEqual([privateGroup]);
    expect(json.group_ratio[privateGroup]).toBe(0.5);
  });
});

describe("/pricing", () => {
  it("shows a visitor the default group's ratio and the formula, filters by name and switches group by links", async () => {
    const model = uniqueModel("pagevis");
    const other = uniqueModel("pageoth");
    await mergeForFile("ModelRatio", { [model]: 0.5, [other]: 0.5 });
    await mergeForFile("GroupRatio", { vip: 2 });
    await createChannel(root, { base_url: upstream.url, models: `${model},${other}`, group: "default,vip" });
    const all = await page("/pricing");
    expect(all.status).toBe(200);
    expect(all.html).toContain("您还未登录，显示的价格为默认分组倍率：1");
    expect(all.html).toContain(
      "按量计费费用 = 分组倍率 × 模型倍率 × （提示token数 + 补全token数 × 补全倍率）/ 500000 （单位：美元）",
    );
    expect(shownDollars(pricingRow(all.html, model), "price-prompt")).toBe(0.001); // 0.5 × 1000 / 500000
    const filtered = await page(`/pricing?q=${encodeURIComponent(model.toUpperCase())}`);
    expect(filtered.html).toContain(`data-model="${model}"`);
    expect(filtered.html).not.toContain(`data-model="${other}"`);
    expect(filtered.html).toContain(`href="/pricing?group=vip&q=${encodeURIComponent(model.toUpperCase())}"`);
    const vip = await page(`/pricing?group=vip&q=${model}`);
    expect(vip.html).toContain("当前查看的分组为：vip，倍率为：2");
    expect(shownDollars(pricingRow(vip.html, model), "price-prompt")).toBe(0.002);
    // A group the visitor may not see falls back to their own.
    const unknown = await page(`/pricing?group=${uniqueName("nope")}&q=${model}`);
    expect(unknown.html).not.toContain("当前查看的分组为");
  });

  it("shows the chosen names to copy without JavaScript, and says when none was chosen", async () => {
    const a = uniqueModel("copya");
    const b = uniqueModel("copyb");
    await mergeForFile("ModelRatio", { [a]: 1, [b]: 1 });
    await createChannel(root, { base_url: upstream.url, models: `${a},${b}` });
    const chosen = await page(`/pricing?group=default&copy=1&model=${a}&model=${b}&model=not-a-model`);
    expect(chosen.html).toMatch(new RegExp(`data-testid="pricing-selection"[^>]*>${a},${b}<|>${a},${b}</textarea>`));
    const none = await page("/pricing?group=default&copy=1");
    expect(none.html).toContain("请至少选择一个模型！");
  });

  it("prices a call exactly as the relay charges it: per-1K prices × tokens = the logged quota", async () => {
    const group = uniqueName("pt");
    const ratioModel = uniqueModel("exact");
    const callModel = uniqueModel("exactcall");
    await mergeForFile("GroupRatio", { [group]: 1.5 });
    await mergeForFile("ModelRatio", { [ratioModel]: 1.5 });
    await mergeForFile("CompletionRatio", { [ratioModel]: 2 });
    await mergeForFile("ModelPrice", { [callModel]: 0.01 });
    const local = await startOpenAiMock();
    try {
      await createChannel(root, { base_url: local.url, models: `${ratioModel},${callModel}`, group });
      const { user, key } = await userInGroup(group);

      const shown = await page("/pricing", user);
      expect(shown.html).toContain(`您的分组为：${group}，分组倍率为：1.5`);
      const row = pricingRow(shown.html, ratioModel);
      expect(row).toContain("按量计费");
      const prompt1K = shownDollars(row, "price-prompt");
      const completion1K = shownDollars(row, "price-completion");
      const perCall = shownDollars(pricingRow(shown.html, callModel), "price-per-call");
      expect(pricingRow(shown.html, callModel)).toContain("按次计费");

      local.fault = { kind: "usage", json: '{"prompt_tokens":1000,"completion_tokens":2000,"total_tokens":3000}' };
      const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl()}/v1`, maxRetries: 0, timeout: 20_000 });
      await client.chat.completions.create({ model: ratioModel, messages: [{ role: "user", content: "hi" }] });
      await client.chat.completions.create({ model: callModel, messages: [{ role: "user", content: "hi" }] });

      const logs = (await user.call("GET", "/api/log/self/?p=1&page_size=10&type=2")).json.data.items as {
        model_name: string;
        quota: number;
        prompt_tokens: number;
        completion_tokens: number;
      }[];
      const ratioLog = logs.find((l) => l.model_name === ratioModel)!;
      const callLog = logs.find((l) => l.model_name === callModel)!;
      expect(ratioLog).toMatchObject({ prompt_tokens: 1000, completion_tokens: 2000 });
      const quotaPerUnit = 500_000;
      expect(ratioLog.quota).toBe(
        Math.round(
          ((ratioLog.prompt_tokens / 1000) * prompt1K + (ratioLog.completion_tokens / 1000) * completion1K) *
            quotaPerUnit,
        ),
      );
      expect(ratioLog.quota).toBe(11_250); // 1.5 × 1.5 × (1000 + 2000 × 2)
      expect(callLog.quota).toBe(Math.round(perCall * quotaPerUnit));
      expect(callLog.quota).toBe(7_500); // $0.01 × 1.5
    } finally {
      await local.close();
    }
  });
});

describe("chat pages", () => {
  const template = "http://127.0.0.1:9/chat?key={key}&server={address}";
  // The pages name the configured server address: set here, not left to whichever file ran before.
  beforeAll(async () => {
    await setForFile("ServerAddress", baseUrl());
  });

  it("opens the configured preset in a frame with the newest usable key and the server address, sending no Referer", async () => {
    await setForFile("Chats", JSON.stringify([{ 测试聊天: template }, { 第二个: "https://chat.invalid/#/{key}" }]));
    const { user, key, tokenId } = await userInGroup("default");
    // A newer token that is disabled is passed over.
    await user.call("POST", "/api/token/", { name: "newer", remain_quota: 0, expired_time: -1, unlimited_quota: true });
    const newer = (await user.call("GET", "/api/token/")).json.data[0];
    expect(newer.id).toBeGreaterThan(tokenId);
    await user.call("PUT", "/api/token/?status_only=true", { id: newer.id, status: 2 });

    const shown = await page("/chat/0", user);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(`src="http://127.0.0.1:9/chat?key=${key}&server=${encodeURIComponent(baseUrl())}"`);
    expect(shown.html).toMatch(/<iframe[^>]*referrerpolicy="no-referrer"/i);
    expect(shown.headers.get("referrer-policy")).toBe("no-referrer");
    expect(shown.headers.get("cache-control")).toContain("no-store");
    // The key is never part of the page's own address: the server fills it in.
    expect((await page("/chat", user)).html).toContain(`key=${key}`);
    expect((await page("/chat/1", user)).html).toContain(`https://chat.invalid/#/${key}`);
    expect((await page("/chat/7", user)).status).toBe(404);
  });

  it("without a usable token shows the product's error and moves on to /token after 1.5 s, without JavaScript", async () => {
    await setForFile("Chats", JSON.stringify([{ 测试聊天: template }]));
    const user = await newUser();
    for (const caller of [user, undefined]) {
      const shown = await page("/chat/0", caller);
      expect(shown.status).toBe(200);
      expect(shown.html).toContain("当前没有可用的启用令牌，请确认是否有令牌处于启用状态！");
      expect(shown.html).toMatch(/<meta http-equiv="refresh" content="1.5;url=\/token"/);
    }
  });

  it("treats ChatLink as a NextChat address, and says when the configuration is missing or broken", async () => {
    const { user, key } = await userInGroup("default");
    await setForFile("ChatLink", "http://127.0.0.1:9/next/");
    expect((await page("/chat", user)).html).toContain(
      `src="http://127.0.0.1:9/next/#/?settings={"key":"${key}","url":"${encodeURIComponent(baseUrl())}"}"`,
    );
    await setForFile("ChatLink", "");
    await setForFile("Chats", "[]");
    expect((await page("/chat", user)).html).toContain("请联系管理员配置聊天链接");
    await setForFile("Chats", "[1, 2]");
    expect((await page("/chat/0", user)).html).toContain("聊天链接配置错误，请联系管理员");
    // A preset that would run script is refused at save now; one stored before that is refused
    // by the page itself (chatLinkKind).
    const refused = await root.call("PUT", "/api/option/", {
      key: "Chats",
      value: JSON.stringify([{ bad: "javascript:alert('{key}')" }]),
    });
    expect(refused.json).toMatchObject({ success: false, message: expect.stringContaining("bad") });
    expect((await page("/chat/0", user)).html).not.toContain(key);
  });

  it("/chat2link redirects to ChatLink2 with the key filled in, and explains when it is not configured", async () => {
    const { user, key } = await userInGroup("default");
    await setForFile("ChatLink2", "http://127.0.0.1:9/two?k={key}");
    const moved = await fetch(baseUrl() + "/chat2link", { headers: { Cookie: user.cookie }, redirect: "manual" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe(`http://127.0.0.1:9/two?k=${key}`);
    expect(moved.headers.get("referrer-policy")).toBe("no-referrer");
    await setForFile("ChatLink2", "");
    expect((await page("/chat2link", user)).html).toContain("请联系管理员配置聊天链接");
    expect((await page("/chat2link")).html).toContain("请联系管理员配置聊天链接");
  });
});
