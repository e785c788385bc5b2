import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { baseUrl, billingWritten, loginRoot, newAdmin, newUser, request, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, setOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * The dashboard (/detail) and /api/data: a user's calls show up per model and hour at once
 * (rollups plus the logs after them, decision 023), admins see everyone's or one user's, and
 * the ranges are bounded.
 */
let root: ApiSession;
let upstream: MockUpstream;
let caller: Awaited<ReturnType<typeof userWithToken>>;
const [modelA, modelB] = [uniqueModel("da"), uniqueModel("db")];

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock();
  await mergeOption(root, "ModelRatio", { [modelA]: 2, [modelB]: 0.5 });
  await createChannel(root, { base_url: upstream.url, models: `${modelA},${modelB}` });
  caller = await userWithToken(10_000_000);
  for (const model of [modelA, modelA, modelA, modelB]) {
    await caller.client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
  }
  await billingWritten();
});
afterAll(async () => upstream?.close());

type Row = {
  model_name: string;
  count: number;
  quota: number;
  token_used: number;
  created_at: number;
  username: string;
};
const byModel = (rows: Row[], model: string) => rows.filter((r) => r.model_name === model);
const sum = (rows: Row[], key: "count" | "quota" | "token_used") => rows.reduce((s, r) => s + r[key], 0);

describe("usage data", () => {
  it("a user's own calls are in /api/data/self per model, matching their usage log", async () => {
    const res = await caller.user.call("GET", "/api/data/self");
    expect(res.json.success).toBe(true);
    const rows = res.json.data as Row[];
    expect(sum(byModel(rows, modelA), "count")).toBe(3);
    expect(sum(byModel(rows, modelB), "count")).toBe(1);
    for (const row of rows) expect(row.created_at % 3600).toBe(0);
    const logs = (await caller.user.call("GET", "/api/log/self?p=1&page_size=100")).json.data.items as {
      quota: number;
      prompt_tokens: number;
      completion_tokens: number;
      type: number;
    }[];
    const consumed = logs.filter((l) => l.type === 2);
    expect(sum(rows, "quota")).toBe(consumed.reduce((s, l) => s + l.quota, 0));
    expect(sum(rows, "token_used")).toBe(consumed.reduce((s, l) => s + l.prompt_tokens + l.completion_tokens, 0));
  });

  it("admins read everyone's (grouped by model and hour) or one user's", async () => {
    const admin = await newAdmin();
    const all = (await admin.call("GET", "/api/data/")).json;
    expect(all.success).toBe(true);
    expect(sum(byModel(all.data, modelA), "count")).toBe(3);
    const one = (await admin.call("GET", `/api/data/?username=${caller.user.username}`)).json;
    expect(one.data.every((r: Row) => r.username === caller.user.username)).toBe(true);
    expect(sum(one.data, "count")).toBe(4);
    expect((await admin.call("GET", "/api/data/?username=nobody-here")).json.data).toEqual([]);
  });

  it("role matrix: /api/data/ is for admins, /api/data/self for every signed-in user", async () => {
    const [user, admin] = [await newUser(), await newAdmin()];
    expect((await request("GET", "/api/data/")).status).toBe(401);
    expect((await request("GET", "/api/data/self")).status).toBe(401);
    expect((await user.call("GET", "/api/data/")).json.success).toBe(false);
    for (const session of [user, admin, root])
      expect((await session.call("GET", "/api/data/self")).json.success).toBe(true);
    for (const session of [admin, root]) expect((await session.call("GET", "/api/data/")).json.success).toBe(true);
  });

  it("ranges are bounded: a user asks for at most a month, bad timestamps are refused", async () => {
    const now = Math.floor(Date.now() / 1000);
    const long = await caller.user.call(
      "GET",
      `/api/data/self?start_timestamp=${now - 40 * 86400}&end_timestamp=${now}`,
    );
    expect(long.json).toMatchObject({ success: false, message: "时间跨度不能超过一个月" });
    expect(
      (await root.call("GET", `/api/data/?start_timestamp=${now - 40 * 86400}&end_timestamp=${now}`)).json.success,
    ).toBe(true);
    for (const bad of ["abc", "-5", "1e30"]) {
      const res = await caller.user.call("GET", `/api/data/self?start_timestamp=${bad}`);
      expect(res.status).toBeLessThan(500);
      expect(res.json.success).toBe(false);
    }
    const reversed = await caller.user.call("GET", `/api/data/self?start_timestamp=${now}&end_timestamp=${now - 3600}`);
    expect(reversed.json.message).toBe("结束时间不能早于开始时间");
  });

  it("/detail draws the user's models as server-side SVG charts with a table, and is offered only while enabled", async () => {
    const page = await fetch(`${baseUrl()}/detail?preset=24h`, { headers: { Cookie: caller.user.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<svg");
    expect(html).toMatch(new RegExp(`<td>${modelA}</td><td>3</td>`));
    expect(html).toContain(`${modelB}：`); // a bar segment's tooltip
    expect(html).toContain('href="/detail"');
    await setOption(root, "DataExportEnabled", "false");
    try {
      const off = await (await fetch(`${baseUrl()}/detail`, { headers: { Cookie: caller.user.cookie } })).text();
      expect(off).toContain("数据看板未启用");
      expect(off).not.toContain('href="/detail"');
    } finally {
      await setOption(root, "DataExportEnabled", "true");
    }
  });

  it("an admin's /detail filters by user name and says when the user does not exist", async () => {
    const html = await (
      await fetch(`${baseUrl()}/detail?preset=7d&username=${caller.user.username}`, {
        headers: { Cookie: root.cookie },
      })
    ).text();
    expect(html).toMatch(new RegExp(`<td>${modelB}</td><td>1</td>`));
    const missing = await (
      await fetch(`${baseUrl()}/detail?username=no-such-user`, { headers: { Cookie: root.cookie } })
    ).text();
    expect(missing).toContain("用户 no-such-user 不存在");
  });
});
