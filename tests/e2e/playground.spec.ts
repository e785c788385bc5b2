import { expect, test } from "@playwright/test";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { signIn, uniqueName } from "./helpers";

let upstream: MockUpstream;
test.beforeAll(async () => {
  upstream = await startOpenAiMock();
});
test.afterAll(async () => upstream.close());

test.describe("playground @nojs", () => {
  test("asks a model and shows the reply; clear context empties the chat", async ({ page, javaScriptEnabled }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    const model = `${uniqueName("pg")}`;
    await page.goto("/channel/add");
    await page.getByLabel("名称").fill(model);
    await page.getByLabel("密钥", { exact: true }).fill("sk-x");
    await page.getByLabel("代理地址（Base URL）").fill(upstream.url);
    await page.getByLabel("自定义模型").fill(model);
    await page.getByRole("button", { name: "填入", exact: true }).click();
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/channel$/);
    // Price the new model so the relay accepts it (root is user 1).
    await page.request.put("/api/option/", {
      headers: { "New-Api-User": "1" },
      data: { key: "ModelPrice", value: JSON.stringify({ [model]: 0.001 }) },
    });
    await page.goto("/playground");
    await page.getByLabel("模型").selectOption(model);
    await page.getByLabel("消息").fill("Say hi");
    await page.getByRole("button", { name: "发送" }).click();
    const reply = page.locator('[data-role="assistant"]').last();
    await expect(reply).toHaveText(javaScriptEnabled ? "Hi there." : "Hello there.");
    await expect(page.locator('[data-role="user"]').last()).toHaveText("Say hi");
    await page.getByRole("button", { name: "清除上下文" }).click();
    await expect(page.locator('[data-role="assistant"]')).toHaveCount(0);
  });
});
