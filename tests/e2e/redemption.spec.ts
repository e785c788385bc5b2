import { readFileSync } from "node:fs";
import { type Page } from "@playwright/test";
import { expect, readsEnglish, said, test } from "./fixtures";
import { registerUser, signIn, uniqueName } from "./helpers";

const KEY = /^[0-9a-f]{32}$/;
const hintOf = (key: string) => `${key.slice(0, 4)}********${key.slice(-4)}`;
const dollars = async (page: Page) =>
  Number((await page.getByTestId("wallet-balance").innerText()).replace(/[^0-9.]/g, ""));

async function asRoot(page: Page) {
  await page.context().clearCookies();
  await signIn(page, "root", "123456");
  await expect(page).toHaveURL(/\/token$/);
}

/** Through the add page; returns the keys the created page shows (once). */
async function createCodes(page: Page, name: string, count: number): Promise<string[]> {
  await page.getByTestId("side-menu").getByRole("link", { name: "兑换码" }).click();
  await expect(page).toHaveURL(/\/redemption$/);
  await page.getByRole("link", { name: "添加新的兑换码" }).click();
  await expect(page.getByRole("heading", { name: "创建新的兑换码" })).toBeVisible();
  await expect(page.getByLabel("额度")).toHaveValue("100000");
  // A preset first (without JS it re-renders the form), then the fields.
  await page.getByRole("button", { name: "1$", exact: true }).click();
  await expect(page.getByLabel("额度")).toHaveValue("500000");
  await page.getByLabel("名称").fill(name);
  await page.getByLabel("生成数量").fill(String(count));
  await page.getByRole("button", { name: "提交" }).click();
  await expect(page.getByRole("heading", { name: "兑换码创建成功！" })).toBeVisible();
  const keys = (await page.getByLabel(`「${name}」的兑换码`).inputValue()).split("\n");
  expect(keys).toHaveLength(count);
  for (const key of keys) expect(key).toMatch(KEY);
  return keys;
}

test.describe("redemption codes and the wallet @nojs", () => {
  test("an admin makes 5 codes and downloads them; a user redeems one once; the admin sees it used by that user", async ({
    page,
  }) => {
    await asRoot(page);
    const name = uniqueName("码");
    const keys = await createCodes(page, name, 5);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: `下载兑换码（${name}.txt）` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${name}.txt`);
    const file = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\n");
    expect(file).toEqual(keys);

    // The list shows the codes masked, never the keys.
    await page.goto(`/redemption?keyword=${encodeURIComponent(name)}`);
    await expect(page.getByTestId("redemption-table").locator("tbody tr")).toHaveCount(5);
    for (const key of keys) await expect(page.getByText(key)).toHaveCount(0);

    // A user redeems the first code on the wallet page.
    await page.context().clearCookies();
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await page.getByTestId("side-menu").getByRole("link", { name: "钱包" }).click();
    await expect(page).toHaveURL(/\/topup$/);
    const before = await dollars(page);
    await page.getByLabel("兑换码").fill(keys[0]!);
    await page.getByRole("button", { name: "兑换", exact: true }).click();
    await expect(page.getByText("兑换成功！成功兑换额度：$1.00")).toBeVisible();
    expect(await dollars(page)).toBeCloseTo(before + 1, 2);

    await page.getByLabel("兑换码").fill(keys[0]!);
    await page.getByRole("button", { name: "兑换", exact: true }).click();
    await expect(page.getByText("该兑换码已被使用")).toBeVisible();
    expect(await dollars(page)).toBeCloseTo(before + 1, 2);

    // One top-up log row for it in the user's own log.
    await page.goto("/log?type=1");
    await expect(page.getByText(said("通过兑换码充值 {{quota}}，兑换码ID {{id}}", { quota: "$1.000000" }))).toHaveCount(
      1,
    );

    // The admin sees it used, with its redeemer.
    await asRoot(page);
    await page.goto(`/redemption?keyword=${encodeURIComponent(name)}`);
    const used = page
      .getByTestId("redemption-table")
      .locator("tbody tr")
      .filter({ hasText: hintOf(keys[0]!) });
    await expect(used).toContainText("已使用");
    await expect(used.getByTestId("redeemer")).toContainText(username);
    await expect(used.getByRole("link", { name: "编辑" })).toHaveCount(0);
    await expect(used.getByTestId(/^enable-/)).toHaveCount(0);
    const unused = page
      .getByTestId("redemption-table")
      .locator("tbody tr")
      .filter({ hasText: hintOf(keys[1]!) });
    await expect(unused).toContainText("未使用");
    await expect(unused.getByTestId("redeemer")).toHaveText("无");
  });

  test("view, copy selected, disable, enable, edit and delete a code", async ({
    page,
    context,
    baseURL,
    javaScriptEnabled,
  }) => {
    if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await asRoot(page);
    const name = uniqueName("管");
    const [key] = await createCodes(page, name, 1);
    await page.goto(`/redemption?keyword=${encodeURIComponent(name)}`);
    const row = () =>
      page
        .getByTestId("redemption-table")
        .locator("tbody tr")
        .filter({ hasText: hintOf(key!) });

    await row().getByRole("button", { name: "查看" }).click();
    await expect(page.getByTestId("redemption-view")).toContainText(hintOf(key!));
    await expect(page.getByTestId("redemption-view")).toContainText("$1.00");

    await page.getByRole("button", { name: "复制所选兑换码到剪贴板" }).click();
    await expect(page.getByText("请至少选择一个兑换码！")).toBeVisible();
    await row().getByRole("checkbox").check();
    await page.getByRole("button", { name: "复制所选兑换码到剪贴板" }).click();
    const line = new RegExp(`${name} ${hintOf(key!).replace(/\*/g, "\\*")} ${readsEnglish() ? "Unused" : "未使用"}`);
    if (javaScriptEnabled) {
      // The enhancement script posts in the background and puts the lines on the clipboard.
      await expect(page.getByRole("button", { name: "已复制到剪贴板！" })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(line);
    } else await expect(page.getByTestId("copied-codes")).toHaveValue(line);

    await row()
      .getByTestId(/^disable-/)
      .click();
    await row().getByRole("button", { name: "确定" }).click();
    await expect(page.getByText("操作成功完成！")).toBeVisible();
    await expect(row()).toContainText("已禁用");
    await row()
      .getByTestId(/^enable-/)
      .click();
    await row().getByRole("button", { name: "确定" }).click();
    await expect(row()).toContainText("未使用");

    await row().getByRole("link", { name: "编辑" }).click();
    await expect(page.getByRole("heading", { name: "更新兑换码信息" })).toBeVisible();
    await page.getByLabel("额度").fill("1000000");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("兑换码更新成功！")).toBeVisible();
    await page.goto(`/redemption?keyword=${encodeURIComponent(name)}`);
    await expect(row()).toContainText("$2.00");

    await row()
      .getByTestId(/^delete-/)
      .click();
    await row().getByRole("button", { name: "确定" }).click();
    await expect(page.getByText("操作成功完成！")).toBeVisible();
    await expect(row()).toHaveCount(0);
  });

  test("an ordinary user has no 兑换码 menu item and gets 403 on /redemption; a wrong code is refused on /topup", async ({
    page,
  }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    const menu = page.getByTestId("side-menu");
    await expect(menu.getByRole("link", { name: "钱包" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "兑换码" })).toHaveCount(0);
    for (const path of ["/redemption", "/redemption/add"]) {
      const reply = await page.goto(path);
      expect(reply?.status(), path).toBe(403);
    }
    await page.goto("/topup");
    await page.getByLabel("兑换码").fill("0".repeat(32));
    await page.getByRole("button", { name: "兑换", exact: true }).click();
    await expect(page.getByText("无效的兑换码")).toBeVisible();
  });
});
