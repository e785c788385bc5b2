import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiLogin, registerUser, signIn, skipBrowserChecks } from "./helpers";

async function freshUser(page: Page) {
  const { username, password } = await registerUser(page);
  await signIn(page, username, password);
  await expect(page).toHaveURL(/\/token$/);
}

async function addToken(page: Page, name: string, extra?: (page: Page) => Promise<void>) {
  await page.getByRole("link", { name: "添加令牌" }).click();
  await expect(page.getByRole("heading", { name: "创建新的令牌" })).toBeVisible();
  await page.getByLabel("名称").fill(name);
  await extra?.(page);
  await page.getByRole("button", { name: "提交" }).click();
  await expect(page).toHaveURL(/\/token$/);
}

test.describe("tokens @nojs", () => {
  test("create, view the key, edit, disable, enable and delete a token", async ({
    page,
    context,
    baseURL,
    javaScriptEnabled,
  }) => {
    if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await freshUser(page);
    await addToken(page, "laptop", async (p) => {
      await p.getByRole("button", { name: "10$" }).click();
      await expect(p.getByLabel("额度", { exact: true })).toHaveValue("5000000");
      await p.getByRole("button", { name: "一天" }).click();
      await expect(p.getByLabel("过期时间")).toHaveValue(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      await p.getByLabel("名称").fill("laptop");
    });
    await expect(page.getByText("令牌创建成功，共创建 1 个令牌")).toBeVisible();
    const row = page.getByTestId("token-row-laptop");
    await expect(row).toContainText("$10.00");
    await expect(row).toContainText("已启用");
    await expect(row.getByTestId("token-key")).toContainText("*");
    await row.getByRole("button", { name: "查看" }).click();
    await expect(page.getByTestId("token-row-laptop").getByTestId("token-key")).toHaveText(/^sk-[A-Za-z0-9]{48}$/);
    const fullKey = await page.getByTestId("token-row-laptop").getByTestId("token-key").textContent();
    await page.getByTestId("token-row-laptop").getByRole("button", { name: "复制" }).click();
    if (javaScriptEnabled) {
      // In place, no page load: the key goes to the clipboard.
      await expect(
        page.getByTestId("token-row-laptop").getByRole("button", { name: "已复制到剪贴板！" }),
      ).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fullKey);
    } else {
      // Without script the same button shows the key in the row to copy by hand.
      await expect(page.getByTestId("token-row-laptop").getByTestId("token-key")).toHaveText(fullKey!);
    }

    await page.getByTestId("token-row-laptop").getByRole("link", { name: "编辑" }).click();
    await expect(page.getByRole("heading", { name: "更新令牌信息" })).toBeVisible();
    await page.getByLabel("名称").fill("desktop");
    await page.getByLabel("过期时间").fill("");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("令牌更新成功！")).toBeVisible();
    const edited = page.getByTestId("token-row-desktop");
    await expect(edited).toContainText("永不过期");

    await edited.getByRole("button", { name: "禁用" }).click();
    await expect(page.getByTestId("token-row-desktop")).toContainText("已禁用");
    await page.getByTestId("token-row-desktop").getByRole("button", { name: "启用" }).click();
    await expect(page.getByTestId("token-row-desktop")).toContainText("已启用");

    await page.getByTestId("delete-desktop").click();
    await page.getByTestId("token-row-desktop").getByRole("button", { name: "确定" }).click();
    await expect(page.getByTestId("token-row-desktop")).toHaveCount(0);
  });

  test("searching by the key the list shows (or a piece of it) finds that token", async ({ page }) => {
    await freshUser(page);
    await addToken(page, "findme");
    await addToken(page, "other");
    const shown = (await page.getByTestId("token-row-findme").getByTestId("token-key").textContent())!.trim();
    expect(shown).toMatch(/^sk-[A-Za-z0-9]{4}\*+[A-Za-z0-9]{4}$/);
    for (const typed of [shown, shown.slice(0, 7), shown.slice(3)]) {
      await page.getByLabel("令牌密钥").fill(typed);
      await page.getByRole("button", { name: "查询" }).click();
      await expect(page).toHaveURL(new RegExp(`token=${encodeURIComponent(typed).replace(/\*/g, "\\*")}`));
      await expect(page.getByTestId("token-row-findme"), typed).toBeVisible();
      await expect(page.getByTestId("token-row-other"), typed).toHaveCount(0);
    }
  });

  test("RPM and TPM limits set on the add form show in the list and come back in the edit form", async ({ page }) => {
    const rpm = "每分钟请求数限制（RPM）";
    const tpm = "每分钟 Token 数限制（TPM）";
    await freshUser(page);
    await addToken(page, "throttled", async (p) => {
      // A new token starts without limits, and the form says what 0 means.
      await expect(p.getByLabel(rpm)).toHaveValue("0");
      await expect(p.getByLabel(tpm)).toHaveValue("0");
      await expect(p.getByLabel(rpm)).toHaveAccessibleDescription("0 表示不限制");
      await p.getByLabel(rpm).fill("5");
      await p.getByLabel(tpm).fill("1000");
    });
    await expect(page.getByTestId("token-row-throttled").getByTestId("token-limits")).toHaveText("RPM 5 · TPM 1000");

    await page.getByTestId("token-row-throttled").getByRole("link", { name: "编辑" }).click();
    await expect(page.getByRole("heading", { name: "更新令牌信息" })).toBeVisible();
    await expect(page.getByLabel(rpm)).toHaveValue("5");
    await expect(page.getByLabel(tpm)).toHaveValue("1000");

    // A value the server refuses is shown on its field, and nothing is saved.
    await page.getByLabel(tpm).fill("-1");
    expect(await skipBrowserChecks(page.getByLabel(tpm))).toEqual({ refusedByBrowser: true });
    await page.getByRole("button", { name: "提交" }).click();
    await expect(
      page.getByText("每分钟 Token 数限制（TPM）必须是 0 到 1000000000 之间的整数（0 表示不限制）"),
    ).toBeVisible();

    await page.getByLabel(rpm).fill("0");
    await page.getByLabel(tpm).fill("2000");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("令牌更新成功！")).toBeVisible();
    await expect(page.getByTestId("token-row-throttled").getByTestId("token-limits")).toHaveText("TPM 2000");

    await page.getByTestId("token-row-throttled").getByRole("link", { name: "编辑" }).click();
    await expect(page.getByLabel(rpm)).toHaveValue("0");
    await expect(page.getByLabel(tpm)).toHaveValue("2000");
  });

  test("a bad expiry date is refused with the product's message", async ({ page }) => {
    await freshUser(page);
    await page.goto("/token/add");
    await page.getByLabel("名称").fill("bad-date");
    await page.getByLabel("过期时间").fill("next tuesday-ish");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("过期时间格式错误！")).toBeVisible();
  });

  test("a name over the reference's 30 bytes and an expiry past year 9999 are refused in the form", async ({
    page,
  }) => {
    await freshUser(page);
    await page.goto("/token/add");
    await page.getByLabel("名称").fill("😀".repeat(40));
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("令牌名称过长")).toBeVisible();
    await page.getByLabel("名称").fill("令".repeat(10));
    await page.getByLabel("过期时间").fill("99999-01-01 00:00:00");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("过期时间格式错误！")).toBeVisible();
    await page.getByLabel("过期时间").fill("9999-12-31 00:00:00");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/token$/);
    await expect(page.getByTestId("token-row-" + "令".repeat(10))).toContainText("9999-12-31");
  });

  test("batch create, copy selected and search", async ({ page, context, baseURL, javaScriptEnabled }) => {
    if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await freshUser(page);
    await page.getByRole("button", { name: "复制所选令牌到剪贴板" }).click();
    await expect(page.getByText("请至少选择一个令牌！")).toBeVisible();
    await addToken(page, "fleet", async (p) => {
      await p.getByRole("button", { name: "10个", exact: true }).click();
      await expect(p.getByLabel("新建数量")).toHaveValue("10");
      await p.getByLabel("名称").fill("fleet");
    });
    await expect(page.getByText("令牌创建成功，共创建 10 个令牌")).toBeVisible();
    await expect(page.locator('[data-testid^="token-row-fleet-"]')).toHaveCount(10);
    await addToken(page, "solo");
    const boxes = page.locator('input[name="ids"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole("button", { name: "复制所选令牌到剪贴板" }).click();
    const twoKeys = /^sk-[A-Za-z0-9]{48}\nsk-[A-Za-z0-9]{48}$/;
    if (javaScriptEnabled) {
      // The enhancement script posts in the background and puts the keys on the clipboard.
      await expect(page.getByRole("button", { name: "已复制到剪贴板！" })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(twoKeys);
      // 全选 (script only) checks every row; the page shows 11 tokens.
      await page.getByLabel("全选").check();
      for (const box of await boxes.all()) await expect(box).toBeChecked();
      await page.getByLabel("全选").uncheck();
      for (const box of await boxes.all()) await expect(box).not.toBeChecked();
    } else {
      await expect(page.getByTestId("copied-keys")).toHaveValue(twoKeys);
      await expect(page.getByLabel("全选")).toBeHidden();
    }

    await page.getByLabel("令牌名称").fill("solo");
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page.locator('[data-testid^="token-row-"]')).toHaveCount(1);
    await expect(page.getByTestId("token-row-solo")).toBeVisible();
  });

  test("a token whose expiry has passed shows 已过期, and a limited one with no quota left 已耗尽", async ({
    page,
  }) => {
    const { username, password } = await registerUser(page);
    const asUser = { "New-Api-User": String(await apiLogin(page.request, username, password)) };
    // The console refuses an expiry in the past, so the token gets a near one and the test waits it out.
    const soon = Math.floor(Date.now() / 1000) + 2;
    for (const data of [
      { name: "soon-gone", remain_quota: 500000, expired_time: soon },
      { name: "drained", remain_quota: 0, expired_time: -1 },
    ]) {
      const res = await page.request.post("/api/token/", {
        headers: asUser,
        data: { unlimited_quota: false, ...data },
      });
      expect(((await res.json()) as { success: boolean }).success).toBe(true);
    }
    await page.goto("/token");
    await expect(page.getByTestId("token-row-soon-gone")).toContainText("已启用");
    await page.waitForTimeout((soon + 1) * 1000 - Date.now() + 100);
    await page.goto("/token");
    await expect(page.getByTestId("token-row-soon-gone")).toContainText("已过期");
    await expect(page.getByTestId("token-row-soon-gone")).not.toContainText("已启用");
    await expect(page.getByTestId("token-row-drained")).toContainText("已耗尽");
  });

  test("another user's token cannot be opened for editing", async ({ page }) => {
    await freshUser(page);
    await addToken(page, "private");
    const href = await page.getByTestId("token-row-private").getByRole("link", { name: "编辑" }).getAttribute("href");
    await page.context().clearCookies();
    await freshUser(page);
    const response = await page.goto(href!);
    expect(response?.status()).toBe(404);
  });
});

test.describe("token times in the reader's time zone", () => {
  // The server runs in UTC (tests/support/e2e-server.ts); the reader is eight hours ahead of it.
  test.use({ timezoneId: "Asia/Shanghai" });

  test("an expiry typed in Shanghai means Shanghai time, shows so there and as New York time in New York, with no hydration errors", async ({
    page,
    browser,
    baseURL,
  }) => {
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    await addToken(page, "tz", async (p) => {
      await p.getByLabel("过期时间").fill("2030-01-01 08:00:00");
    });
    await expect(page.getByTestId("token-row-tz")).toContainText("2030-01-01 08:00:00");
    await page.getByTestId("token-row-tz").getByRole("link", { name: "编辑" }).click();
    await expect(page.getByLabel("过期时间")).toHaveValue("2030-01-01 08:00:00");
    // Server HTML and the browser's render printed the same times.
    expect(consoleErrors.filter((text) => /hydrat|did not match|#418|#423|#425/i.test(text))).toEqual([]);

    // The same token read from New York: the same instant, 13 hours earlier on the wall clock.
    const newYork = await browser.newContext({ timezoneId: "America/New_York", baseURL });
    try {
      const other = await newYork.newPage();
      await signIn(other, username, password);
      await expect(other).toHaveURL(/\/token$/);
      await expect(other.getByTestId("token-row-tz")).toContainText("2029-12-31 19:00:00");
    } finally {
      await newYork.close();
    }
  });
});
