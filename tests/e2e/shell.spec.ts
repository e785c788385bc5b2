import { expect, test } from "./fixtures";
import { registerUser, signIn } from "./helpers";

test.describe("application shell @nojs", () => {
  test("the side menu differs for an ordinary user and root", async ({ page }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    const menu = page.getByTestId("side-menu");
    await expect(menu.getByRole("link", { name: "令牌" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "日志" })).toBeVisible();
    // Drawing and task logs are on by default (DrawingEnabled, TaskEnabled).
    await expect(menu.getByRole("link", { name: "绘图" })).toHaveAttribute("href", "/midjourney");
    await expect(menu.getByRole("link", { name: "异步任务" })).toHaveAttribute("href", "/task");
    await expect(menu.getByRole("link", { name: "渠道" })).toHaveCount(0);

    await page.context().clearCookies();
    await signIn(page, "root", "123456");
    await expect(menu.getByRole("link", { name: "渠道" })).toBeVisible();
  });

  test("every menu link leads to a page that works", async ({ page }) => {
    await signIn(page, "root", "123456");
    const links = page.getByTestId("side-menu").getByRole("link");
    await expect(links.filter({ hasText: "设置" })).toBeVisible();
    const targets = await links.evaluateAll((anchors) =>
      anchors.map((a) => (a as HTMLAnchorElement).getAttribute("href") ?? ""),
    );
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      const reply = await page.request.get(target);
      expect(reply.status(), target).toBe(200);
    }
  });

  test("no link on the public pages leads to a page that does not exist", async ({ page }) => {
    for (const start of ["/", "/login", "/register", "/about"]) {
      await page.goto(start);
      const targets = await page
        .locator("a[href^='/']")
        .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).getAttribute("href") ?? ""));
      for (const target of new Set(targets)) {
        const reply = await page.request.get(target, { maxRedirects: 0 });
        expect(reply.status(), `${start} → ${target}`).not.toBe(404);
      }
    }
  });

  test("the dark-mode switch works and is remembered", async ({ page }) => {
    await page.goto("/about");
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await page.getByTestId("theme-toggle").click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(page).toHaveURL(/\/about$/);
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.getByTestId("theme-toggle").click();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
  });

  test("an unknown address shows the not-found page with a 404", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "页面不存在" })).toBeVisible();
    await expect(page).toHaveTitle("页面不存在");
  });

  test("/logo.png (the reference's default Logo) answers with an image, as /logo.svg does", async ({ request }) => {
    for (const path of ["/logo.png", "/logo.svg"]) {
      const reply = await request.get(path);
      expect(reply.status(), path).toBe(200);
      expect(reply.headers()["content-type"], path).toMatch(/^image\//);
    }
  });

  test("visitors see sign-in links; the about page renders", async ({ page }) => {
    await page.goto("/about");
    await expect(page.getByRole("heading", { name: "关于" })).toBeVisible();
    await expect(page.getByRole("link", { name: "登录" })).toBeVisible();
    await expect(page.getByRole("link", { name: "注册" })).toBeVisible();
  });

  test("under 600 px the menu folds into a disclosure", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page.getByTestId("side-menu")).toBeHidden();
    const mobile = page.getByTestId("mobile-menu");
    await expect(mobile).toBeVisible();
    await mobile.getByText("菜单").click();
    await expect(mobile.getByRole("link", { name: "令牌" })).toBeVisible();
  });
});
