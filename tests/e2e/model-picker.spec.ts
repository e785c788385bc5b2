import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signIn, uniqueName } from "./helpers";

test.use({ viewport: { width: 390, height: 844 } });

const ROOT = { "New-Api-User": "1" };

async function savedModels(page: Page, name: string): Promise<string[]> {
  const reply = await page.request.get(`/api/channel/search?keyword=${encodeURIComponent(name)}`, { headers: ROOT });
  const channels = ((await reply.json()) as { data: { name: string; models: string }[] }).data;
  return channels
    .find((c) => c.name === name)!
    .models.split(",")
    .sort();
}

/** The picker fits a phone: nothing in it reaches past the screen's right edge. */
async function expectFitsScreen(page: Page) {
  const picker = page.getByTestId("channel-models");
  const box = (await picker.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test.describe("the model picker at 390 px @nojs", () => {
  test("a channel's models are chosen from groups (searched with JavaScript) and saved exactly", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    await page.goto("/channel/add");
    const name = uniqueName("mp");
    await page.getByLabel("名称").fill(name);
    await page.getByLabel("密钥", { exact: true }).fill("sk-picker");
    await page.getByRole("button", { name: "清除所有模型" }).click();
    const picker = page.getByTestId("channel-models");
    await expect(picker.locator("input:checked")).toHaveCount(0);
    await expectFitsScreen(page);
    const total = await picker.locator("label[data-model]").count();
    // The models are grouped: one long list is what made the old select unusable on a phone.
    expect(await picker.locator("details[data-model-group]").count()).toBeGreaterThan(3);
    const claude = (await picker.locator('label[data-model^="claude-"]').first().getAttribute("data-model"))!;
    const search = picker.getByRole("searchbox");

    if (javaScriptEnabled) {
      await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
      await search.fill("4o-mini");
      const shown = picker.locator("label[data-model]:visible");
      await expect(shown.first()).toBeVisible();
      const names = await shown.evaluateAll((labels) => labels.map((l) => (l as HTMLElement).dataset.model ?? ""));
      expect(names.length).toBeLessThan(total);
      expect(names.every((n) => n.includes("4o-mini"))).toBe(true);
      await picker.getByLabel("gpt-4o-mini", { exact: true }).check();
      await search.fill(claude);
      await picker.getByLabel(claude, { exact: true }).check();
      await expect(picker.locator("[data-picker-count]")).toHaveText(`已选 2 / ${total}`);
      // Enter in the search box searches; it does not post the form.
      await search.press("Enter");
      await expect(page).toHaveURL(/\/channel\/add$/);
      // Cleared, the list is back, with the groups of the chosen models open to show them.
      await search.fill("");
      await expect(picker.getByLabel("gpt-4o-mini", { exact: true })).toBeChecked();
      await expect(picker.getByLabel(claude, { exact: true })).toBeVisible();
    } else {
      // Without script there is no search box: a group opens, a box is ticked.
      await expect(search).toBeHidden();
      await picker.locator("summary", { hasText: "OpenAI" }).click();
      await picker.getByLabel("gpt-4o-mini", { exact: true }).check();
      await picker.locator("summary", { hasText: "Claude" }).click();
      await picker.getByLabel(claude, { exact: true }).check();
    }
    await expectFitsScreen(page);
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("渠道创建成功！")).toBeVisible();
    expect(await savedModels(page, name)).toEqual(["gpt-4o-mini", claude].sort());
  });

  test("a token's model limits are picked the same way and saved exactly", async ({ page, javaScriptEnabled }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    // Two models of root's group, one of them found by search (JS) or in its group (no JS).
    const mine = uniqueName("pm-model");
    const created = await page.request.post("/api/channel/", {
      headers: ROOT,
      data: { type: 1, name: uniqueName("mp"), key: "sk-x", models: `gpt-4o-mini,${mine}`, group: "default" },
    });
    expect(((await created.json()) as { success: boolean }).success).toBe(true);
    await page.goto("/token/add");
    const name = uniqueName("mt");
    await page.getByLabel("名称").fill(name);
    await page.getByLabel("启用模型限制（非必要，不建议启用）").check();
    const picker = page.getByTestId("token-models");
    if (javaScriptEnabled) {
      await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
      await picker.getByRole("searchbox").fill(mine);
      await expect(picker.locator("label[data-model]:visible")).toHaveCount(1);
    } else {
      await picker.locator("summary", { hasText: "其他" }).click();
    }
    await picker.getByLabel(mine, { exact: true }).check();
    const box = (await picker.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/token$/);
    const found = await page.request.get(`/api/token/search?keyword=${name}`, { headers: ROOT });
    const tokens = (
      (await found.json()) as { data: { name: string; model_limits: string; model_limits_enabled: boolean }[] }
    ).data;
    expect(tokens.find((t) => t.name === name)).toMatchObject({ model_limits: mine, model_limits_enabled: true });
  });
});
