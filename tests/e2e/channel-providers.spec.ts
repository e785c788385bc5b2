import { type Page } from "@playwright/test";
import { expect, test, said } from "./fixtures";
import { startOllamaNativeMock } from "../mocks/ollama-native-upstream";
import type { ProviderMock } from "../mocks/provider-mock";
import { pickChannelType, signIn, uniqueName } from "./helpers";

let ollama: ProviderMock;
test.beforeAll(async () => {
  ollama = await startOllamaNativeMock();
});
test.afterAll(async () => {
  await ollama.close();
});

async function asRoot(page: Page) {
  await signIn(page, "root", "123456");
  await expect(page).toHaveURL(/\/token$/);
}

/** Picks a type (the form is re-rendered for it) and fills in its default models. */
async function pickType(page: Page, label: string, javaScriptEnabled: boolean) {
  await pickChannelType(page, label, javaScriptEnabled);
  await page.getByRole("button", { name: "填入该类型的默认模型" }).click();
}

test.describe("channel form per provider @nojs", () => {
  test("hints per type, the upstream's model list fetched into the form, then saved", async ({
    page,
    javaScriptEnabled,
  }) => {
    await asRoot(page);
    await page.goto("/channel/add");
    await pickType(page, "Cloudflare", javaScriptEnabled);
    await expect(page.getByLabel("Account ID（必填）")).toBeVisible();
    await expect(page.getByText("格式：Workers AI API Token")).toBeVisible();

    await pickType(page, "Ollama", javaScriptEnabled);
    await expect(page.getByLabel("代理地址（Base URL）")).toHaveAttribute("placeholder", "http://localhost:11434");
    await expect(
      page.locator('[data-testid="channel-models"] label:has(input:checked)', { hasText: "nomic-embed-text" }),
    ).toHaveCount(1);
    const name = uniqueName("ol");
    await page.getByLabel("名称").fill(name);
    await page.getByLabel("密钥", { exact: true }).fill("any");
    await page.getByLabel("代理地址（Base URL）").fill(ollama.url);
    await page.getByRole("button", { name: "获取模型列表" }).click();
    await expect(page.locator('[data-testid="channel-models"] label:has(input:checked)')).toHaveText([
      "llama3.2:latest",
      "qwen2.5:7b",
    ]);
    expect(ollama.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/tags" });
    // The typed key survives the re-render, so the save that follows needs nothing re-entered.
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("渠道创建成功！")).toBeVisible();
  });

  test("a type switch replaces the previous type's default models and fills the new type's defaults", async ({
    page,
    javaScriptEnabled,
  }) => {
    await asRoot(page);
    await page.goto("/channel/add");
    const chosen = page.locator('[data-testid="channel-models"] label:has(input:checked)');
    // The options follow the catalog's order, not the order of choice.
    const chosenSorted = async () => (await chosen.allTextContents()).sort();
    // The form opens with OpenAI's defaults chosen; a model added by hand must survive switches.
    await expect(chosen.filter({ hasText: /^dall-e-3$/ })).toHaveCount(1);
    await page.getByLabel("自定义模型").fill("my-own-model");
    await page.getByRole("button", { name: "填入", exact: true }).click();
    await expect(chosen.filter({ hasText: /^my-own-model$/ })).toHaveCount(1);

    await pickChannelType(page, "Azure OpenAI", javaScriptEnabled);
    expect(await chosenSorted()).toEqual([
      "gpt-35-turbo",
      "gpt-4",
      "gpt-4o",
      "gpt-4o-mini",
      "my-own-model",
      "text-embedding-ada-002",
    ]);
    await expect(page.getByLabel("默认 API 版本")).toHaveValue("2023-06-01-preview");

    // Azure's untouched API version is its default, not something another type should inherit.
    await pickChannelType(page, "Ollama", javaScriptEnabled);
    expect(await chosenSorted()).toEqual(["llama3.1", "mistral", "my-own-model", "nomic-embed-text", "qwen2.5"]);
    await expect(page.locator('input[name="other"]')).toHaveValue("");
  });

  test("a type without a default host cannot be saved without a base URL; a failed model fetch says why", async ({
    page,
    javaScriptEnabled,
  }) => {
    await asRoot(page);
    await page.goto("/channel/add");
    await pickType(page, "Xinference", javaScriptEnabled);
    await expect(page.getByLabel("代理地址（Base URL）")).toHaveAttribute(
      "placeholder",
      "必填，如 http://localhost:9997",
    );
    await page.getByLabel("名称").fill(uniqueName("xi"));
    await page.getByLabel("密钥", { exact: true }).fill("k");
    await page.getByRole("button", { name: "获取模型列表" }).click();
    await expect(page.getByText("获取模型列表失败：未设置 Base URL")).toBeVisible();
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("该渠道类型必须填写 Base URL")).toBeVisible();
    await page.getByLabel("代理地址（Base URL）").fill("http://169.254.169.254");
    await page.getByRole("button", { name: "获取模型列表" }).click();
    await expect(page.getByText(said("获取模型列表失败：{{reason}}"))).toBeVisible();
  });
});
