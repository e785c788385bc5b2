import { readFileSync } from "node:fs";
import { pageText } from "../../app/i18n/translate";
import { expect, readsEnglish, said, test } from "./fixtures";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { apiLogin, mergeOption, setOption, uniqueName } from "./helpers";

let upstream: MockUpstream;
test.beforeAll(async () => {
  upstream = await startOpenAiMock();
});
test.afterAll(async () => upstream.close());

test.describe("usage log @nojs", () => {
  test("the filter opens on the default range: a day back to an hour ahead", async ({ page }) => {
    await apiLogin(page.request, "root", "123456");
    await page.goto("/log");
    const start = await page.getByLabel("起始时间").inputValue();
    const end = await page.getByLabel("结束时间").inputValue();
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    // Both are wall-clock times in one zone: read alike, they lie 25 hours apart, around now.
    const [startMs, endMs] = [Date.parse(`${start}Z`), Date.parse(`${end}Z`)];
    expect(endMs - startMs).toBe(25 * 3600 * 1000);
    expect(Math.abs(endMs - 3600 * 1000 - Date.now())).toBeLessThan(15 * 3600 * 1000);
    // A submitted form with the fields cleared is taken as it is: no range at all.
    await page.getByLabel("起始时间").fill("");
    await page.getByLabel("结束时间").fill("");
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page.getByLabel("起始时间")).toHaveValue("");
  });

  test("a user reads and filters their own calls; an admin sees every user's with channel and user card", async ({
    page,
  }) => {
    const request = page.request;
    const [modelA, modelB] = [uniqueName("la"), uniqueName("lb")];
    await apiLogin(request, "root", "123456");
    const channel = await request.post("/api/channel/", {
      headers: { "New-Api-User": "1" },
      data: {
        type: 1,
        name: uniqueName("logch"),
        key: "sk-x",
        base_url: upstream.url,
        models: `${modelA},${modelB}`,
        group: "default",
      },
    });
    expect(((await channel.json()) as { success: boolean }).success).toBe(true);
    await mergeOption(request, "ModelPrice", { [modelA]: 0.5, [modelB]: 1 });
    await setOption(request, "QuotaForNewUser", "5000000");
    const username = uniqueName("lu");
    await request.post("/api/user/register", { data: { username, password: "password123", password2: "password123" } });
    await setOption(request, "QuotaForNewUser", "0");

    // The user mints a token and calls the relay three times.
    const userId = await apiLogin(request, username, "password123");
    const asUser = { "New-Api-User": String(userId) };
    await request.post("/api/token/", {
      headers: asUser,
      data: { name: "logs", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
    });
    const tokenId = (
      (await (await request.get("/api/token/", { headers: asUser })).json()) as { data: { id: number }[] }
    ).data[0]!.id;
    const key = (
      (await (await request.get(`/api/token/${tokenId}/key`, { headers: asUser })).json()) as { data: { key: string } }
    ).data.key;
    for (const model of [modelA, modelA, modelB]) {
      const reply = await request.post("/v1/chat/completions", {
        headers: { Authorization: `Bearer ${key}` },
        data: { model, messages: [{ role: "user", content: "hi" }] },
      });
      expect(reply.status()).toBe(200);
    }

    // The page shares the request context's cookie: the user is signed in already.
    // Three calls, and the system log of the new-user gift (QuotaForNewUser) that came first.
    await page.goto("/log");
    await expect(page.getByTestId("log-row")).toHaveCount(4);
    await expect(page.getByTestId("log-row").last()).toContainText(said("新用户注册赠送 {{quota}}"));
    // Prices are per call: $0.5 + $0.5 + $1 in all (shown in dollars, the default).
    await expect(page.getByTestId("log-stat")).toContainText("消耗额度：$2.00");
    await expect(page.getByTestId("log-stat")).toContainText(said("RPM：{{rpm}}", { rpm: 3 }));
    await expect(page.getByRole("columnheader", { name: "渠道" })).toHaveCount(0);
    await page.getByLabel("模型名称").fill(modelB);
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page.getByTestId("log-row")).toHaveCount(1);
    await expect(page.getByTestId("log-row")).toContainText(modelB);
    await expect(page.getByTestId("log-cost")).toHaveText("$1.000000");
    // The export link carries the filter: the CSV holds exactly the visible row (own rows only).
    const downloading = page.waitForEvent("download");
    await page.getByTestId("log-export").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^logs-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8");
    // The columns in the reader's language, as the page names them.
    const word = (key: string) => (readsEnglish() ? pageText("en", key) : key);
    expect(csv.startsWith(`\uFEFF${["时间", "令牌", "类型", "模型"].map(word).join(",")}`)).toBe(true);
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`logs,${word("消费")},${modelB},`);

    await apiLogin(request, "root", "123456");
    await page.goto(`/log?username=${username}&type=2`);
    await expect(page.getByTestId("log-row")).toHaveCount(3);
    await expect(page.getByRole("columnheader", { name: "渠道" })).toBeVisible();
    await page.getByTestId("log-row").first().locator("summary", { hasText: username }).click();
    const card = page.getByTestId("user-card").first();
    await expect(card).toBeVisible();
    await expect(card).toContainText(`${word("请求次数")}3`);
    await expect(card).toContainText(`${word("已用额度")}$2.00`);
    await expect(card).toContainText(`${word("剩余额度")}$8.00`);
  });

  test("a call served partly from the prompt cache shows its cached and reasoning tokens", async ({ page }) => {
    const request = page.request;
    const model = uniqueName("lcache");
    await apiLogin(request, "root", "123456");
    const channel = await request.post("/api/channel/", {
      headers: { "New-Api-User": "1" },
      data: {
        type: 1,
        name: uniqueName("logcache"),
        key: "sk-x",
        base_url: upstream.url,
        models: model,
        group: "default",
      },
    });
    expect(((await channel.json()) as { success: boolean }).success).toBe(true);
    await mergeOption(request, "ModelRatio", { [model]: 1 });
    await setOption(request, "QuotaForNewUser", "5000000");
    const username = uniqueName("lc");
    await request.post("/api/user/register", { data: { username, password: "password123", password2: "password123" } });
    await setOption(request, "QuotaForNewUser", "0");
    const userId = await apiLogin(request, username, "password123");
    const asUser = { "New-Api-User": String(userId) };
    await request.post("/api/token/", {
      headers: asUser,
      data: { name: "cache", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
    });
    const tokenId = (
      (await (await request.get("/api/token/", { headers: asUser })).json()) as { data: { id: number }[] }
    ).data[0]!.id;
    const key = (
      (await (await request.get(`/api/token/${tokenId}/key`, { headers: asUser })).json()) as { data: { key: string } }
    ).data.key;
    upstream.fault = {
      kind: "usage",
      json: JSON.stringify({
        prompt_tokens: 3000,
        completion_tokens: 40,
        total_tokens: 3040,
        prompt_tokens_details: { cached_tokens: 2048 },
        completion_tokens_details: { reasoning_tokens: 16 },
      }),
    };
    try {
      const reply = await request.post("/v1/chat/completions", {
        headers: { Authorization: `Bearer ${key}` },
        data: { model, messages: [{ role: "user", content: "hi" }] },
      });
      expect(reply.status()).toBe(200);
    } finally {
      upstream.fault = undefined;
    }
    await page.goto("/log?type=2");
    const row = page.getByTestId("log-row");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("log-cache-tokens")).toHaveText("缓存 2048");
    await expect(row.getByTestId("log-reasoning-tokens")).toHaveText("推理 16");
  });

  test("deep pages move by next and previous links, with the count stated", async ({ page }) => {
    const request = page.request;
    await apiLogin(request, "root", "123456");
    const username = uniqueName("lp");
    await request.post("/api/user/register", { data: { username, password: "password123", password2: "password123" } });
    const found = await request.get(`/api/user/search?keyword=${username}`, { headers: { "New-Api-User": "1" } });
    const userId = ((await found.json()) as { data: { id: number; username: string }[] }).data.find(
      (u) => u.username === username,
    )!.id;
    // Twelve quota changes: twelve management rows of that user, newest with the highest quota.
    for (let quota = 1; quota <= 12; quota += 1) {
      const res = await request.put("/api/user/", { headers: { "New-Api-User": "1" }, data: { id: userId, quota } });
      expect(((await res.json()) as { success: boolean }).success).toBe(true);
    }
    await page.goto(`/log?username=${username}&type=3&size=10`);
    await expect(page.getByTestId("log-row")).toHaveCount(10);
    await expect(page.getByTestId("log-total")).toHaveText("共 12 条");
    await expect(page.getByRole("link", { name: "上一页" })).toHaveCount(0);
    await expect(page.getByTestId("log-row").first()).toContainText(
      said("管理员将用户额度从 {{before}} 修改为 {{after}}", { after: 12 }),
    );
    await page.getByRole("link", { name: "下一页" }).click();
    await expect(page).toHaveURL(/before=\d+_\d+/);
    await expect(page.getByTestId("log-row")).toHaveCount(2);
    await expect(page.getByTestId("log-row").first()).toContainText(
      said("管理员将用户额度从 {{before}} 修改为 {{after}}", { after: 2 }),
    );
    await expect(page.getByTestId("log-row").last()).toContainText(
      said("管理员将用户额度从 {{before}} 修改为 {{after}}", { after: 1 }),
    );
    await expect(page.getByRole("link", { name: "下一页" })).toHaveCount(0);
    await page.getByRole("link", { name: "上一页" }).click();
    await expect(page.getByTestId("log-row")).toHaveCount(10);
    await expect(page.getByTestId("log-row").first()).toContainText(
      said("管理员将用户额度从 {{before}} 修改为 {{after}}", { after: 12 }),
    );
    await expect(page.getByTestId("log-row").last()).toContainText(
      said("管理员将用户额度从 {{before}} 修改为 {{after}}", { after: 3 }),
    );
  });
});
