import { expect, test } from "./fixtures";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { apiLogin, setOption, uniqueName } from "./helpers";

let upstream: MockUpstream;
test.beforeAll(async () => {
  upstream = await startOpenAiMock();
});
test.afterAll(async () => upstream.close());

test.describe("dashboard @nojs", () => {
  test("a user sees their spend by model as charts and a table; an admin filters by user", async ({ page }) => {
    const request = page.request;
    const [modelA, modelB] = [uniqueName("dsa"), uniqueName("dsb")];
    await apiLogin(request, "root", "123456");
    const channel = await request.post("/api/channel/", {
      headers: { "New-Api-User": "1" },
      data: {
        type: 1,
        name: uniqueName("dsch"),
        key: "sk-x",
        base_url: upstream.url,
        models: `${modelA},${modelB}`,
        group: "default",
      },
    });
    expect(((await channel.json()) as { success: boolean }).success).toBe(true);
    const prices = (await (await request.get("/api/option/", { headers: { "New-Api-User": "1" } })).json()) as {
      data: { key: string; value: string }[];
    };
    const modelPrice = prices.data.find((o) => o.key === "ModelPrice")!.value;
    await setOption(request, "ModelPrice", JSON.stringify({ ...JSON.parse(modelPrice), [modelA]: 0.5, [modelB]: 1 }));
    await setOption(request, "QuotaForNewUser", "5000000");
    const username = uniqueName("du");
    await request.post("/api/user/register", { data: { username, password: "password123", password2: "password123" } });
    await setOption(request, "QuotaForNewUser", "0");

    const userId = await apiLogin(request, username, "password123");
    const asUser = { "New-Api-User": String(userId) };
    await request.post("/api/token/", {
      headers: asUser,
      data: { name: "dash", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
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

    await page.goto("/");
    await page.getByRole("link", { name: "数据看板" }).first().click();
    await expect(page).toHaveURL(/\/detail/);
    await expect(page.getByTestId("detail-totals")).toContainText("消耗额度：$2.00");
    await expect(page.getByTestId("detail-totals")).toContainText("请求次数：3");
    const models = page.getByTestId("detail-models");
    await expect(models.getByRole("row", { name: new RegExp(`${modelA}\\s*2`) })).toBeVisible();
    await expect(models.getByRole("row", { name: new RegExp(`${modelB}\\s*1`) })).toBeVisible();
    await expect(page.getByRole("img", { name: "额度消耗" })).toBeVisible();
    // Granularity switch by the form: by week, still the same totals.
    await page.getByLabel("时间粒度").selectOption("week");
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(/granularity=week/);
    await expect(page.getByTestId("detail-totals")).toContainText("请求次数：3");

    await apiLogin(request, "root", "123456");
    await page.goto(`/detail?preset=7d&username=${username}`);
    await expect(page.getByTestId("detail-totals")).toContainText("请求次数：3");
    await page.goto("/detail?username=nobody-at-all");
    await expect(page.getByRole("alert")).toHaveText("用户 nobody-at-all 不存在");
    await setOption(request, "ModelPrice", modelPrice);
  });
});
