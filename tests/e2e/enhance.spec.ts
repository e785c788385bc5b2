import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { registerUser, signIn } from "./helpers";

/**
 * The enhancement script's behaviours on light pages (decision 032). Each enhances something that
 * works without it (tested with JavaScript off elsewhere); here: that it does, in place.
 */
test.describe("enhancement script", () => {
  async function freshUser(page: Page) {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
  }

  /** A flag set in the page survives only if no page load happens in between. */
  const markPage = (page: Page) => page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
  const pageKept = (page: Page) => page.evaluate(() => (window as unknown as { kept?: boolean }).kept === true);

  test("the theme switch applies in place and is remembered", async ({ page }) => {
    await freshUser(page);
    const html = page.locator("html");
    const dark = (await html.getAttribute("class"))?.includes("dark") ?? false;
    await markPage(page);
    await page.getByTestId("theme-toggle").click();
    await expect(html).toHaveClass(dark ? /^(?!.*dark)/ : /dark/);
    expect(await pageKept(page)).toBe(true);
    await page.reload();
    await expect(html).toHaveClass(dark ? /^(?!.*dark)/ : /dark/);
    // And back again, in place.
    await page.getByTestId("theme-toggle").click();
    await expect(html).toHaveClass(dark ? /dark/ : /^(?!.*dark)/);
  });

  test("设为无限额度 disables the quota field and its presets while checked", async ({ page }) => {
    await freshUser(page);
    await page.getByRole("link", { name: "添加令牌" }).click();
    const quota = page.getByLabel("额度", { exact: true });
    const unlimited = page.getByLabel("设为无限额度");
    await markPage(page);
    await unlimited.check();
    await expect(quota).toBeDisabled();
    await expect(page.getByRole("button", { name: "10$" })).toBeDisabled();
    await unlimited.uncheck();
    await expect(quota).toBeEnabled();
    await expect(page.getByRole("button", { name: "10$" })).toBeEnabled();
    expect(await pageKept(page)).toBe(true);
  });

  test("a row's confirmation closes on 取消, on Escape and on a click outside", async ({ page }) => {
    await freshUser(page);
    await page.getByRole("link", { name: "添加令牌" }).click();
    await page.getByLabel("名称").fill("popover");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/token$/);
    const summary = page.getByTestId("delete-popover");
    const panel = page.getByTestId("confirm-delete-popover");
    await summary.click();
    await expect(panel).toBeVisible();
    await panel.getByRole("button", { name: "取消" }).click();
    await expect(panel).toBeHidden();
    await summary.click();
    await expect(panel).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await summary.click();
    await expect(panel).toBeVisible();
    await page.locator("h1").first().click();
    await expect(panel).toBeHidden();
    // The token is still there: nothing was deleted by closing.
    await expect(page.getByTestId("token-row-popover")).toBeVisible();
  });

  test("a second press while a post is on its way does not post again", async ({ page }) => {
    await freshUser(page);
    await page.getByRole("link", { name: "添加令牌" }).click();
    await page.getByLabel("名称").fill("once");
    let posts = 0;
    // Hold the answer back, so that the second press happens while the first is on its way.
    await page.route("**/token/add", async (route) => {
      if (route.request().method() === "POST") {
        posts += 1;
        await new Promise((resolve) => setTimeout(resolve, 800));
      }
      await route.continue();
    });
    // Two presses 150 ms apart, both before the answer (held 800 ms) arrives.
    await page.getByRole("button", { name: "提交", exact: true }).evaluate((submit: HTMLButtonElement) => {
      submit.click();
      setTimeout(() => submit.click(), 150);
    });
    await expect(page).toHaveURL(/\/token$/, { timeout: 10_000 });
    expect(posts).toBe(1);
    await expect(page.locator('[data-testid="token-row-once"]')).toHaveCount(1);
  });

  test("light pages load no framework script; the enhancement script is one cached file", async ({ page }) => {
    await freshUser(page);
    // Leave the signed-in page for a blank one first: a script response of that earlier load can
    // still be reported after this listener is attached, and it is not this load's.
    await page.goto("about:blank");
    const scripts: { url: string; cacheControl: string }[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script")
        scripts.push({ url: response.url(), cacheControl: response.headers()["cache-control"] ?? "" });
    });
    await page.goto("/token");
    await expect(page.getByRole("link", { name: "添加令牌" })).toBeVisible();
    expect(scripts.map((s) => new URL(s.url).pathname)).toEqual([
      expect.stringMatching(/^\/assets\/enhance-[\w-]+\.js$/),
    ]);
    expect(scripts[0]!.cacheControl).toMatch(/max-age=31536000/);
    expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
  });
});
