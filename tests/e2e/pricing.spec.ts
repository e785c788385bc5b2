import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { expect, said, test } from "./fixtures";
import { registerUser, signIn, uniqueName } from "./helpers";

/** Root's API session beside the browser's, so a visitor's page stays signed out. */
async function rootApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "New-Api-User": "1" } });
  const login = await api.post("/api/user/login", { data: { username: "root", password: "123456" } });
  expect((await login.json()).success).toBe(true);
  return api;
}

async function optionValue(api: APIRequestContext, key: string): Promise<string> {
  const all = (await (await api.get("/api/option/")).json()).data as { key: string; value: string }[];
  return all.find((o) => o.key === key)?.value ?? "";
}

async function setOption(api: APIRequestContext, key: string, value: string) {
  const res = await (await api.put("/api/option/", { data: { key, value } })).json();
  expect(res.success, `${key}: ${res.message}`).toBe(true);
}

async function mergeOption(api: APIRequestContext, key: string, entries: Record<string, number>) {
  await setOption(api, key, JSON.stringify({ ...JSON.parse((await optionValue(api, key)) || "{}"), ...entries }));
}

/** Two ratio-priced models on a channel in default and vip (no call is made, so no upstream is needed). */
async function pricedModels(api: APIRequestContext) {
  const a = uniqueName("pa").toLowerCase();
  const b = uniqueName("pb").toLowerCase();
  await mergeOption(api, "ModelRatio", { [a]: 0.5, [b]: 1 });
  await mergeOption(api, "GroupRatio", { vip: 2 });
  const res = await (
    await api.post("/api/channel/", {
      data: {
        type: 1,
        name: uniqueName("pc"),
        key: "sk-x",
        base_url: "http://127.0.0.1:9",
        models: `${a},${b}`,
        group: "default,vip",
      },
    })
  ).json();
  expect(res.success).toBe(true);
  return { a, b };
}

test.describe("pricing @nojs", () => {
  test("a model whose provider prices its prompt cache apart shows the cache read and write prices", async ({
    page,
    baseURL,
  }) => {
    const api = await rootApi(baseURL!);
    const modelRatio = await optionValue(api, "ModelRatio");
    try {
      const model = `claude-${uniqueName("pcache").toLowerCase()}`;
      await mergeOption(api, "ModelRatio", { [model]: 1 });
      const res = await (
        await api.post("/api/channel/", {
          data: {
            type: 1,
            name: uniqueName("pcc"),
            key: "sk-x",
            base_url: "http://127.0.0.1:9",
            models: model,
            group: "default",
          },
        })
      ).json();
      expect(res.success).toBe(true);
      await page.goto(`/pricing?q=${model}`);
      const row = page.locator(`[data-model="${model}"]`);
      await expect(row.getByTestId("price-cached")).toHaveText("缓存读取 $0.0002 / 1K tokens");
      await expect(row.getByTestId("price-cache-write")).toHaveText("缓存写入 $0.0025 / 1K tokens");
      await expect(row).toContainText("缓存倍率：0.1");
    } finally {
      await setOption(api, "ModelRatio", modelRatio);
    }
  });

  test("a visitor sees the default group's prices, filters by a model name and switches group", async ({
    page,
    baseURL,
  }) => {
    const api = await rootApi(baseURL!);
    const [groupRatio, modelRatio] = [await optionValue(api, "GroupRatio"), await optionValue(api, "ModelRatio")];
    try {
      const { a, b } = await pricedModels(api);
      await page.goto("/");
      await page.getByRole("link", { name: "模型价格" }).click();
      await expect(page).toHaveURL(/\/pricing$/);
      await expect(page.getByTestId("pricing-banner")).toHaveText("您还未登录，显示的价格为默认分组倍率：1");
      await expect(page.getByTestId("pricing-formula")).toContainText(
        said("按量计费费用 = 分组倍率 × 模型倍率 × （提示token数 + 补全token数 × 补全倍率）/ {{unit}} （单位：美元）"),
      );

      await page.getByPlaceholder("模糊搜索模型名称").fill(a.toUpperCase());
      await page.getByRole("button", { name: "搜索" }).click();
      await expect(page).toHaveURL(/q=/);
      const row = page.locator(`[data-model="${a}"]`);
      await expect(row).toBeVisible();
      await expect(page.locator(`[data-model="${b}"]`)).toHaveCount(0);
      await expect(row.getByTestId("price-prompt")).toHaveText("提示 $0.001 / 1K tokens");
      await expect(row).toContainText("按量计费");

      await page.getByTestId("pricing-groups").getByRole("link", { name: /vip/ }).click();
      await expect(page).toHaveURL(/group=vip/);
      await expect(page.getByTestId("pricing-viewing")).toHaveText("当前查看的分组为：vip，倍率为：2");
      await expect(page.locator(`[data-model="${a}"]`).getByTestId("price-prompt")).toHaveText(
        "提示 $0.002 / 1K tokens",
      );
    } finally {
      await setOption(api, "GroupRatio", groupRatio);
      await setOption(api, "ModelRatio", modelRatio);
      await api.dispose();
    }
  });

  test("a signed-in user sees their group from the menu and copies the chosen models", async ({
    page,
    context,
    baseURL,
    javaScriptEnabled,
  }) => {
    const api = await rootApi(baseURL!);
    const [groupRatio, modelRatio] = [await optionValue(api, "GroupRatio"), await optionValue(api, "ModelRatio")];
    try {
      const { a, b } = await pricedModels(api);
      const { username, password } = await registerUser(page);
      await signIn(page, username, password);
      await expect(page).toHaveURL(/\/token$/);
      await page.getByTestId("side-menu").getByRole("link", { name: "模型价格" }).click();
      await expect(page.getByTestId("pricing-banner")).toHaveText("您的分组为：default，分组倍率为：1");

      await page.getByLabel(`选择 ${a}`).check();
      await page.getByLabel(`选择 ${b}`).check();
      if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByRole("button", { name: "复制选中模型" }).click();
      if (javaScriptEnabled) {
        await expect(page.getByText("已复制到剪贴板！")).toContainText(`${a},${b}`);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${a},${b}`);
      } else {
        await expect(page.getByTestId("pricing-selection")).toHaveValue(`${a},${b}`);
      }
    } finally {
      await setOption(api, "GroupRatio", groupRatio);
      await setOption(api, "ModelRatio", modelRatio);
      await api.dispose();
    }
  });

  test("the chat page of a user without a usable token says so and moves on to /token", async ({
    page,
    javaScriptEnabled,
  }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    if (javaScriptEnabled) {
      // A client-side navigation from the menu: the inserted meta refresh still moves on.
      await page.getByTestId("side-menu").getByRole("link", { name: "聊天" }).click();
    } else {
      await page.goto("/chat");
    }
    await expect(page.getByTestId("chat-error")).toContainText(
      "当前没有可用的启用令牌，请确认是否有令牌处于启用状态！",
    );
    await expect(page).toHaveURL(/\/token$/, { timeout: 5_000 });
  });
});

test("the chat page frames the configured client with the user's key", async ({ page, baseURL }) => {
  const api = await rootApi(baseURL!);
  const chats = await optionValue(api, "Chats");
  const serverAddress = await optionValue(api, "ServerAddress");
  try {
    // A loopback page stands in for the chat client: no test reaches outside the machine. The
    // address filled in is ServerAddress (other tests may have set it): this test's own.
    await setOption(api, "ServerAddress", baseURL!);
    await setOption(api, "Chats", JSON.stringify([{ 本地聊天: `${baseURL}/about?key={key}&server={address}` }]));
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    await page.getByRole("link", { name: "添加令牌" }).click();
    await expect(page.getByRole("heading", { name: "创建新的令牌" })).toBeVisible();
    await page.getByLabel("名称").fill("chat");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/token$/);
    await page.goto("/chat/0");
    const frame = page.getByTestId("chat-frame");
    await expect(frame).toHaveAttribute(
      "src",
      new RegExp(`^${baseURL}/about\\?key=sk-[A-Za-z0-9]{48}&server=${encodeURIComponent(baseURL!)}$`),
    );
    await expect(frame).toHaveAttribute("referrerpolicy", "no-referrer");
    await expect(page).toHaveURL(/\/chat\/0$/);
  } finally {
    await setOption(api, "Chats", chats);
    await setOption(api, "ServerAddress", serverAddress);
    await api.dispose();
  }
});
