import { type Page } from "@playwright/test";
import { expect, said, test } from "./fixtures";
import { registerUser, signIn, signOut, skipBrowserChecks, uniqueName } from "./helpers";

/**
 * The root-only settings tabs driven through the console (JavaScript on and off).
 * Every option a test changes is put back before it ends: the e2e server is shared.
 */
async function asRoot(page: Page) {
  await signIn(page, "root", "123456");
  await expect(page).toHaveURL(/\/token/);
}

async function saveOn(page: Page, button: string) {
  await page.getByRole("button", { name: button, exact: true }).click();
}

test.describe("admin settings @nojs", () => {
  test("root sets the notice and site name on 其他设置 and sees them on the home page and top bar", async ({
    page,
  }) => {
    await asRoot(page);
    await page.goto("/setting?tab=other");
    const notice = page.locator("#notice-Notice");
    const name = page.locator("#system-name-SystemName");
    const [oldNotice, oldName] = [await notice.inputValue(), await name.inputValue()];
    const newNotice = `**维护通知** ${uniqueName("n")}`;
    const newName = `网关${uniqueName("s")}`;

    await notice.fill(newNotice);
    await saveOn(page, "保存公告");
    await expect(page.getByText("公告已更新")).toBeVisible();
    await page.locator("#system-name-SystemName").fill(newName);
    await saveOn(page, "保存系统名称");
    await expect(page.getByText("系统名称已更新")).toBeVisible();

    await page.goto("/");
    const shown = page.getByRole("region", { name: "公告" });
    await expect(shown.locator("strong")).toHaveText("维护通知");
    await expect(shown).toContainText(newNotice.split(" ")[1]!);
    await expect(page.locator("header")).toContainText(newName);

    await page.goto("/setting?tab=other");
    await page.locator("#notice-Notice").fill(oldNotice);
    await saveOn(page, "保存公告");
    await expect(page.getByText("公告已更新")).toBeVisible();
    await page.locator("#system-name-SystemName").fill(oldName);
    await saveOn(page, "保存系统名称");
    await expect(page.locator("header")).toContainText(oldName);
  });

  test("a cleared site name falls back to the default in the top bar and the page title", async ({ page }) => {
    await asRoot(page);
    await page.goto("/setting?tab=other");
    const oldName = await page.locator("#system-name-SystemName").inputValue();
    await page.locator("#system-name-SystemName").fill("");
    await saveOn(page, "保存系统名称");
    await expect(page.getByText("系统名称已更新")).toBeVisible();
    try {
      await page.goto("/");
      await expect(page.locator("header")).toContainText("Switchyard");
      await expect(page).toHaveTitle("Switchyard");
    } finally {
      await page.goto("/setting?tab=other");
      await page.locator("#system-name-SystemName").fill(oldName);
      await saveOn(page, "保存系统名称");
      await expect(page.getByText("系统名称已更新")).toBeVisible();
    }
  });

  test("root toggles a login option; switching password login off asks for a confirmation", async ({ page }) => {
    await asRoot(page);
    await page.goto("/setting?tab=system");
    const register = page.getByLabel("允许通过密码进行注册");
    await expect(register).toBeChecked();
    await register.uncheck();
    await saveOn(page, "保存配置登录注册");
    await expect(page.getByText("保存成功")).toBeVisible();
    await expect(page.getByLabel("允许通过密码进行注册")).not.toBeChecked();
    await page.getByLabel("允许通过密码进行注册").check();
    await saveOn(page, "保存配置登录注册");
    await expect(page.getByLabel("允许通过密码进行注册")).toBeChecked();

    await page.getByLabel("允许通过密码进行登录").uncheck();
    await saveOn(page, "保存配置登录注册");
    await expect(
      page.getByText(
        said("确定要取消密码登录功能吗？如果你未绑定其他登录方式，将无法通过密码登录。请勾选确认后再保存"),
      ),
    ).toBeVisible();
    await expect(page.getByLabel("允许通过密码进行登录")).not.toBeChecked();
    await page.getByLabel("我已了解，确认关闭").check();
    await saveOn(page, "保存配置登录注册");
    await expect(page.getByText("保存成功")).toBeVisible();
    await expect(page.getByLabel("允许通过密码进行登录")).not.toBeChecked();
    // Put it back at once: every other test signs in with a password. Wait for the save's own
    // answer: with JavaScript the box is checked before the POST lands, and a test that ends
    // first leaves password login off for every test after it.
    await page.getByLabel("允许通过密码进行登录").check();
    const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/setting"));
    await saveOn(page, "保存配置登录注册");
    await saved;
    await page.goto("/setting?tab=system");
    await expect(page.getByLabel("允许通过密码进行登录")).toBeChecked();
  });

  test("root sets the user model request rate limit on 运营设置; a period of 0 minutes is refused", async ({
    page,
  }) => {
    await asRoot(page);
    await page.goto("/setting?tab=operation");
    const card = page.getByTestId("card-rate-limit");
    await expect(card.getByRole("heading")).toHaveText("模型请求速率限制");
    await expect(card.getByLabel("启用用户模型请求速率限制（可能会影响高并发性能）")).not.toBeChecked();
    await expect(card.locator("#rate-limit-ModelRequestRateLimitSuccessCount")).toHaveValue("1000");
    const period = card.locator("#rate-limit-ModelRequestRateLimitDurationMinutes");
    await period.fill("0");
    expect((await skipBrowserChecks(period)).refusedByBrowser).toBe(true);
    await saveOn(page, "保存模型请求速率限制");
    await expect(page.getByTestId("card-rate-limit").locator(".field-error")).toBeVisible();

    await page.goto("/setting?tab=operation");
    const again = page.getByTestId("card-rate-limit");
    await again.getByLabel("启用用户模型请求速率限制（可能会影响高并发性能）").check();
    await again.locator("#rate-limit-ModelRequestRateLimitDurationMinutes").fill("5");
    await again.locator("#rate-limit-ModelRequestRateLimitCount").fill("300");
    await saveOn(page, "保存模型请求速率限制");
    await expect(page.getByText("保存成功")).toBeVisible();
    await page.goto("/setting?tab=operation");
    const saved = page.getByTestId("card-rate-limit");
    await expect(saved.getByLabel("启用用户模型请求速率限制（可能会影响高并发性能）")).toBeChecked();
    await expect(saved.locator("#rate-limit-ModelRequestRateLimitDurationMinutes")).toHaveValue("5");
    await expect(saved.locator("#rate-limit-ModelRequestRateLimitCount")).toHaveValue("300");

    // Put back: the e2e server is shared.
    await saved.getByLabel("启用用户模型请求速率限制（可能会影响高并发性能）").uncheck();
    await saved.locator("#rate-limit-ModelRequestRateLimitDurationMinutes").fill("1");
    await saved.locator("#rate-limit-ModelRequestRateLimitCount").fill("0");
    await saveOn(page, "保存模型请求速率限制");
    await expect(page.getByText("保存成功")).toBeVisible();
  });

  test("a ratio JSON with an error is refused and kept for fixing; a valid one is saved", async ({ page }) => {
    await asRoot(page);
    await page.goto("/setting?tab=operation");
    const groups = page.locator("#ratio-GroupRatio");
    const original = await groups.inputValue();
    const group = uniqueName("g");
    await groups.fill(`{"default": 1, "${group}": 2`);
    await saveOn(page, "保存倍率设置");
    // Said once, under the field it is about (not again as the card's own error).
    await expect(page.getByTestId("card-ratio").getByText("不是合法的 JSON 字符串")).toHaveCount(1);
    await expect(page.locator("#ratio-GroupRatio-error")).toHaveText("不是合法的 JSON 字符串");
    await expect(page.locator("#ratio-GroupRatio")).toHaveValue(`{"default": 1, "${group}": 2`);

    const fixed = JSON.stringify({ ...(JSON.parse(original) as Record<string, number>), [group]: 2 });
    await page.locator("#ratio-GroupRatio").fill(fixed);
    await saveOn(page, "保存倍率设置");
    await expect(page.getByText("保存成功")).toBeVisible();
    await expect(page.locator("#ratio-GroupRatio")).toContainText(`"${group}": 2`);

    await page.locator("#ratio-GroupRatio").fill(original);
    await saveOn(page, "保存倍率设置");
    await expect(page.locator("#ratio-GroupRatio")).not.toContainText(group);
  });

  test("root clears logs before a chosen time; without a time it is asked for one", async ({ page }) => {
    await asRoot(page);
    await page.goto("/setting?tab=operation");
    await saveOn(page, "清除历史日志");
    // The browser asks for the time first (required); posted anyway, the server asks too.
    expect(await skipBrowserChecks(page.getByLabel("清除此时间之前的历史日志"))).toEqual({ refusedByBrowser: true });
    await saveOn(page, "清除历史日志");
    await expect(page.getByText("请选择日志记录时间")).toBeVisible();
    // Long before this server existed: nothing other tests wrote goes.
    await page.getByLabel("清除此时间之前的历史日志").fill("2001-01-01T00:00:00");
    await saveOn(page, "清除历史日志");
    await expect(page.getByText("0 条日志已清理！")).toBeVisible();
  });

  test("an ordinary user sees only 个人设置 and is refused the admin tabs", async ({ page }) => {
    const user = await registerUser(page);
    await signIn(page, user.username, user.password);
    await expect(page).toHaveURL(/\/token/);
    await page.goto("/setting");
    await expect(page.getByRole("heading", { name: "个人设置" })).toBeVisible();
    await expect(page.getByRole("link", { name: "运营设置" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "系统设置" })).toHaveCount(0);
    const refused = await page.goto("/setting?tab=system");
    expect(refused?.status()).toBe(403);
    await page.goto("/setting");
    await signOut(page);
  });
});
