import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signIn, uniqueName } from "./helpers";

const ROOT = { "New-Api-User": "1" };

/** The confirmation opens beside its own 删除 (under it, or over it when the screen has no room below). */
async function expectAnchored(page: Page, channel: string) {
  const summary = page.getByTestId(`delete-${channel}`);
  await summary.scrollIntoViewIfNeeded();
  await summary.click();
  const panel = page.getByTestId(`confirm-delete-${channel}`);
  await expect(panel).toBeVisible();
  const button = (await summary.boundingBox())!;
  const box = (await panel.boundingBox())!;
  const viewport = page.viewportSize()!;
  const below = box.y >= button.y + button.height - 1 && box.y <= button.y + button.height + 8;
  const above = box.y + box.height <= button.y + 1 && box.y + box.height >= button.y - 8;
  expect({ below, above }).not.toEqual({ below: false, above: false });
  // Below whenever it fits: it never covers the rows above its own for no reason.
  if (button.y + button.height + box.height + 8 <= viewport.height) expect(below).toBe(true);
  // Its columns overlap the button's, and it is wholly on screen.
  expect(box.x).toBeLessThanOrEqual(button.x + button.width);
  expect(box.x + box.width).toBeGreaterThanOrEqual(button.x);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  await expect(panel.getByRole("button", { name: "确定" })).toBeVisible();
}

test.describe("a row's delete confirmation @nojs", () => {
  test("opens anchored to its own button, on a wide screen and at 390 px", async ({ page }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    const prefix = uniqueName("pop");
    for (const n of [1, 2, 3]) {
      const created = await page.request.post("/api/channel/", {
        headers: ROOT,
        data: {
          type: 1,
          name: `${prefix}${n}`,
          key: "sk-x",
          models: "gpt-4o-mini",
          group: "default",
        },
      });
      expect(((await created.json()) as { success: boolean }).success).toBe(true);
    }
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`/channel?keyword=${prefix}`);
      await expectAnchored(page, `${prefix}3`);
      await page.goto(`/channel?keyword=${prefix}`);
      await expectAnchored(page, `${prefix}1`);
    }
  });
});
