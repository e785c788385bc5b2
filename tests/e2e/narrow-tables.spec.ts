import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signIn, uniqueName } from "./helpers";

test.use({ viewport: { width: 390, height: 844 } });

const ROOT = { "New-Api-User": "1" };

/** On screen without a sideways scroll: inside the viewport's width, and not under another element. */
async function expectOnScreen(page: Page, cell: Locator) {
  // Scrolled to vertically only: a sideways scroll of the table box is what must not be needed.
  await cell.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 100));
  const box = (await cell.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // Nothing (a pinned actions column) covers it, and its text is not cut off.
  const { covered, clipped } = await cell.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      covered: !top || !el.contains(top),
      clipped: el.scrollWidth > el.clientWidth,
    };
  });
  expect({ covered, clipped }).toEqual({ covered: false, clipped: false });
}

test.describe("list tables at 390 px @nojs", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
  });

  test("users: status, quota and the full display name are on screen, no sideways scroll", async ({ page }) => {
    await page.goto("/user?keyword=root");
    const row = page.getByTestId("user-row-root");
    await expectOnScreen(page, row.getByTestId("user-status"));
    await expectOnScreen(page, row.getByTestId("user-quota"));
    const displayName = row.locator("td").nth(2);
    await expectOnScreen(page, displayName);
    await expect(displayName).toHaveText(/Root User/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("channels and tokens: status and quota are on screen, names not covered", async ({ page }) => {
    const channel = uniqueName("nt");
    const created = await page.request.post("/api/channel/", {
      headers: ROOT,
      data: {
        type: 1,
        name: channel,
        key: "sk-x",
        models: "gpt-4o-mini",
        group: "default",
      },
    });
    expect(((await created.json()) as { success: boolean }).success).toBe(true);
    await page.goto(`/channel?keyword=${channel}`);
    const row = page.getByTestId(`channel-row-${channel}`);
    // The cells by column (名称, 状态, 已用/剩余), the same before and under 600 px.
    for (const column of [2, 5, 7]) await expectOnScreen(page, row.locator("td").nth(column));

    const token = uniqueName("nt");
    await page.request.post("/api/token/", {
      headers: ROOT,
      data: {
        name: token,
        remain_quota: 500000,
        unlimited_quota: false,
        expired_time: -1,
      },
    });
    await page.goto(`/token?keyword=${token}`);
    const tokenRow = page.getByTestId(`token-row-${token}`);
    // 名称, 状态, 剩余额度.
    for (const column of [1, 2, 4]) await expectOnScreen(page, tokenRow.locator("td").nth(column));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
