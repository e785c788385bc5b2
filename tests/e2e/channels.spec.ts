import { type Page } from "@playwright/test";
import { expect, said, test } from "./fixtures";
import { pickChannelType, registerUser, signIn, uniqueName } from "./helpers";

async function asRoot(page: Page) {
  await signIn(page, "root", "123456");
  await expect(page).toHaveURL(/\/token$/);
}

async function addChannel(page: Page, name: string, key = "sk-test-key") {
  await page.goto("/channel/add");
  await page.getByLabel("名称").fill(name);
  await page.getByLabel("密钥", { exact: true }).fill(key);
  await page.getByRole("button", { name: "提交" }).click();
}

test.describe("channels @nojs", () => {
  test("create, edit, disable, enable, copy and delete a channel", async ({ page }) => {
    await asRoot(page);
    const name = uniqueName("c");
    await addChannel(page, name);
    await expect(page).toHaveURL(/\/channel$/);
    await expect(page.getByText("渠道创建成功！")).toBeVisible();
    const row = page.getByTestId(`channel-row-${name}`);
    await expect(row).toContainText("OpenAI");
    await expect(row).toContainText("已启用");
    await expect(row).toContainText("未测试");
    await expect(page.getByText("sk-test-key")).toHaveCount(0);

    await row.getByRole("link", { name: "编辑" }).click();
    await expect(page.getByRole("heading", { name: "更新渠道信息" })).toBeVisible();
    await expect(page.getByLabel("密钥", { exact: true })).toHaveValue("");
    await page.getByLabel("名称").fill(`${name}x`);
    await page.getByLabel("优先级").fill("7");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("渠道更新成功！")).toBeVisible();
    const edited = page.getByTestId(`channel-row-${name}x`);
    await expect(edited.getByLabel(`${name}x 优先级`)).toHaveValue("7");

    await edited.getByRole("button", { name: "禁用" }).click();
    await expect(page.getByTestId(`channel-row-${name}x`)).toContainText("已禁用");
    await expect(page.getByTestId(`channel-row-${name}x`).getByTestId("status-reason")).toContainText("手动禁用");
    await page.getByTestId(`channel-row-${name}x`).getByRole("button", { name: "启用" }).click();
    await expect(page.getByTestId(`channel-row-${name}x`)).toContainText("已启用");

    await page.getByTestId(`channel-row-${name}x`).getByRole("button", { name: "复制" }).click();
    await expect(page.getByText("渠道复制成功")).toBeVisible();
    await expect(page.getByTestId(`channel-row-${name}x_复制`)).toBeVisible();

    await page.getByTestId(`delete-${name}x_复制`).click();
    await page.getByTestId(`channel-row-${name}x_复制`).getByRole("button", { name: "确定" }).click();
    await expect(page.getByTestId(`channel-row-${name}x_复制`)).toHaveCount(0);
  });

  test("form validation and helpers: required fields, JSON mapping, default models, custom models", async ({
    page,
    javaScriptEnabled,
  }) => {
    await asRoot(page);
    await page.goto("/channel/add");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("请填写渠道名称和渠道密钥！")).toBeVisible();

    await page.getByLabel("名称").fill(uniqueName("c"));
    await page.getByLabel("密钥", { exact: true }).fill("k");
    await page.getByLabel("模型重定向").fill("{not json");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("模型映射必须是合法的 JSON 格式！")).toBeVisible();

    await page.getByRole("button", { name: "清除所有模型" }).click();
    await expect(page.locator('[data-testid="channel-models"] label:has(input:checked)')).toHaveCount(0);
    // A new type with no models chosen comes back with its defaults.
    await pickChannelType(page, "Anthropic Claude", javaScriptEnabled);
    await expect(page.locator('[data-testid="channel-models"] label:has(input:checked)').first()).toHaveText(
      /^claude-/,
    );
    await page.getByRole("button", { name: "清除所有模型" }).click();
    await page.getByRole("button", { name: "填入该类型的默认模型" }).click();
    await expect(page.locator('[data-testid="channel-models"] label:has(input:checked)').first()).toHaveText(
      /^claude-/,
    );

    await page.getByLabel("自定义模型").fill("my-model, claude-3-5-sonnet-20241022");
    await page.getByRole("button", { name: "填入", exact: true }).click();
    await expect(page.getByText("某些模型已存在！")).toBeVisible();
    await expect(
      page.locator('[data-testid="channel-models"] label:has(input:checked)', { hasText: "my-model" }),
    ).toHaveCount(1);

    await page.getByRole("button", { name: "填入模板" }).first().click();
    await expect(page.getByLabel("模型重定向")).toHaveValue(/gpt-3\.5-turbo-0301/);
  });

  test("batch: one channel per key line, delete selected, search", async ({ page }) => {
    await asRoot(page);
    const name = uniqueName("b");
    await addChannel(page, name, "k1\nk2\nk3");
    await expect(page).toHaveURL(/\/channel$/);
    await page.getByLabel("关键字").fill(name);
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page.getByTestId(`channel-row-${name}`)).toHaveCount(3);
    await page.getByRole("button", { name: "删除所选通道" }).click();
    await expect(page.getByText("请先选择要删除的通道！")).toBeVisible();
    const boxes = page.locator('input[name="ids"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole("button", { name: "删除所选通道" }).click();
    await expect(page.getByText("已删除 2 个通道！")).toBeVisible();
    await expect(page.getByTestId(`channel-row-${name}`)).toHaveCount(1);
    await page.getByRole("button", { name: "修复数据库一致性" }).click();
    await expect(page.getByText(said("已修复 {{count}} 个通道！"))).toBeVisible();
  });

  test("an ordinary user cannot open the channel pages", async ({ page }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    for (const path of ["/channel", "/channel/add"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { name: "无权进行此操作，权限不足" })).toBeVisible();
    }
  });
});

test.describe("channel tests from the console @nojs", () => {
  test("a failed test shows red with its error on the channel row; a metadata base URL is refused by the form", async ({
    page,
  }) => {
    const { freePort } = await import("../support/server");
    await asRoot(page);
    await page.goto("/channel/add");
    await page.getByLabel("名称").fill(uniqueName("m"));
    await page.getByLabel("密钥", { exact: true }).fill("sk-x");
    await page.getByLabel("代理地址（Base URL）").fill("http://169.254.169.254/latest");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(
      page.getByText(
        said("代理地址不能是链路本地或云元数据地址（169.254.0.0/16、fe80::/10、fd00:ec2::254、100.100.100.200）"),
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/channel\/add$/);

    const name = uniqueName("f");
    await page.getByLabel("名称").fill(name);
    await page.getByLabel("密钥", { exact: true }).fill("sk-x");
    await page.getByLabel("代理地址（Base URL）").fill(`http://127.0.0.1:${await freePort()}`); // nothing listens there
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/channel$/);
    await page.getByTestId(`channel-row-${name}`).getByRole("button", { name: "测试" }).click();
    await expect(page.getByText(said("渠道 {{name}} 测试失败：{{reason}}", { name }))).toBeVisible();
    const cell = page.getByTestId(`channel-row-${name}`).getByTestId("response-time");
    await expect(cell).toContainText("测试失败");
    await expect(cell).not.toContainText("秒");
    await expect(cell.getByTestId("test-error")).toContainText("请求上游地址失败");
    await expect(cell.getByText("测试失败")).toHaveClass(/bg-red-100/);
  });

  test("test one channel, refresh its balance and test all", async ({ page }) => {
    const { startOpenAiMock } = await import("../mocks/openai-upstream");
    const upstream = await startOpenAiMock();
    try {
      await asRoot(page);
      const name = uniqueName("t");
      await page.goto("/channel/add");
      await page.getByLabel("名称").fill(name);
      await page.getByLabel("密钥", { exact: true }).fill("sk-x");
      await page.getByLabel("代理地址（Base URL）").fill(upstream.url);
      await page.getByRole("button", { name: "提交" }).click();
      await expect(page).toHaveURL(/\/channel$/);
      const row = page.getByTestId(`channel-row-${name}`);
      await row.getByRole("button", { name: "测试" }).click();
      await expect(page.getByText(said("渠道 {{name}} 测试成功，耗时 {{seconds}} 秒。", { name }))).toBeVisible();
      await expect(page.getByTestId(`channel-row-${name}`)).not.toContainText("未测试");
      await page.getByTestId(`channel-row-${name}`).getByTitle("更新余额").click();
      await expect(page.getByText(`渠道 ${name} 余额更新成功`)).toBeVisible();
      await expect(page.getByTestId(`channel-row-${name}`)).toContainText("$99.50");
      await page.getByRole("button", { name: "测试所有通道" }).click();
      // An earlier run (the other project) may still be testing the channels that point nowhere.
      await expect(
        page.getByText(said("已成功开始测试所有通道，请刷新页面查看结果。")).or(page.getByText(said("测试已在运行中"))),
      ).toBeVisible();
      await expect(page.getByTestId("test-all-progress")).toBeVisible();
    } finally {
      await upstream.close();
    }
  });
});
