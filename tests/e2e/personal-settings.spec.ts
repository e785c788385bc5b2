import { request as apiRequest, type APIRequestContext, type Page } from "@playwright/test";
import { expect, said, test } from "./fixtures";
import { registerUser, signIn as signInForm, signOut, uniqueName } from "./helpers";

/** Signs in and waits for the landing page (with JavaScript the form submits in the background). */
async function signIn(page: Page, username: string, password: string) {
  await signInForm(page, username, password);
  await expect(page).toHaveURL(/\/token$/);
}

/**
 * Personal settings (/setting): models, invite link and figures, moving earnings into
 * quota, the system access token shown once, and deleting one's own account — with JavaScript
 * on and off.
 */

/** Root's own API session, apart from the browser's cookies. */
async function rootApi(baseURL: string): Promise<{ api: APIRequestContext; asRoot: Record<string, string> }> {
  const api = await apiRequest.newContext({ baseURL });
  const res = await api.post("/api/user/login", { data: { username: "root", password: "123456" } });
  const id = ((await res.json()) as { data: { id: number } }).data.id;
  return { api, asRoot: { "New-Api-User": String(id) } };
}

async function setOption(root: { api: APIRequestContext; asRoot: Record<string, string> }, key: string, value: string) {
  const res = await root.api.put("/api/option/", { headers: root.asRoot, data: { key, value } });
  expect(((await res.json()) as { success: boolean }).success).toBe(true);
}

test.describe("personal settings @nojs", () => {
  test("models, invite link, an invitee counted, earnings moved to quota, an access token shown once, and the account deleted", async ({
    page,
    baseURL,
  }) => {
    const root = await rootApi(baseURL!);
    const model = `pm-${uniqueName("m")}`;
    const channel = await root.api.post("/api/channel/", {
      headers: root.asRoot,
      data: {
        type: 1,
        name: uniqueName("pch"),
        key: "sk-x",
        base_url: "http://127.0.0.1:9",
        models: model,
        group: "default",
      },
    });
    expect(((await channel.json()) as { success: boolean }).success).toBe(true);
    // Two quota units for each invite; restored at the end whatever happens.
    await setOption(root, "QuotaForInviter", "1000000");
    try {
      const inviter = await registerUser(page);
      await signIn(page, inviter.username, inviter.password);
      await page.goto("/setting");

      // Models: the group's models as tags.
      await expect(page.getByTestId("model-tags")).toContainText(model);

      // Display name.
      await page.getByLabel("修改显示名称").fill("邀请人甲");
      await page.getByRole("button", { name: "保存" }).click();
      await expect(page.getByText("用户信息更新成功！")).toBeVisible();
      await expect(page.getByText("邀请人甲", { exact: true }).first()).toBeVisible();

      // Invite link and figures.
      const link = await page.getByLabel("邀请链接").inputValue();
      expect(link).toMatch(/\/register\?aff=[0-9A-Za-z]{4}$/);
      await expect(page.getByTestId("aff-count")).toHaveText("0");

      // A second person registers through the link.
      await signOut(page);
      await page.goto(`/register${new URL(link).search}`);
      const invitee = uniqueName("iv");
      await page.getByLabel("用户名").fill(invitee);
      await page.getByLabel("密码", { exact: true }).fill("password123");
      await page.getByLabel("确认密码").fill("password123");
      await page.getByRole("button", { name: "注册" }).click();
      await expect(page).toHaveURL(/\/login$/);

      await signIn(page, inviter.username, inviter.password);
      await page.goto("/setting");
      await expect(page.getByTestId("aff-count")).toHaveText("1");
      await expect(page.getByTestId("aff-quota")).toHaveText("$2.00");
      await expect(page.getByTestId("aff-history")).toHaveText("$2.00");

      // Earnings to quota.
      await page.getByLabel(said("划转到余额（额度，最低 {{min}}，可用 {{available}}）")).fill("1000000");
      await page.getByRole("button", { name: "划转", exact: true }).click();
      await expect(page.getByText("划转成功")).toBeVisible();
      await expect(page.getByTestId("aff-quota")).toHaveText("$0.00");
      await expect(page.getByTestId("aff-history")).toHaveText("$2.00");

      // The system access token: shown once, works, never shown again.
      await page.getByRole("button", { name: "生成系统访问令牌" }).click();
      const once = page.getByTestId("access-token-once");
      await expect(once).toContainText(said("系统访问令牌已生成。它只显示这一次，请立即复制保存；之前的令牌已失效。"));
      const token = await page.getByLabel("新的系统访问令牌").inputValue();
      expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
      // A context without cookies: the token alone is the credential.
      const script = await apiRequest.newContext({ baseURL });
      const me = (await (await script.get("/api/user/self", { headers: { Authorization: token } })).json()) as {
        data: { username: string; quota: number };
      };
      await script.dispose();
      expect(me.data.username).toBe(inviter.username);
      expect(me.data.quota).toBe(1000000);
      await page.goto("/setting");
      await expect(page.getByTestId("access-token-once")).toHaveCount(0);
      expect(await page.content()).not.toContain(token);

      // Delete the account: a wrong name is refused, the exact one deletes and signs out.
      await page.getByLabel("请输入你的账户名以确认删除！").fill(`${inviter.username}x`);
      await page.getByRole("button", { name: "确认删除" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "请输入你的账户名以确认删除！" })).toBeVisible();
      await expect(page).toHaveURL(/\/setting/);
      await page.getByLabel("请输入你的账户名以确认删除！").fill(inviter.username);
      await page.getByRole("button", { name: "确认删除" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("账户已删除！")).toBeVisible();
      await page.goto("/setting");
      await expect(page).toHaveURL(/\/login/);
      await signInForm(page, inviter.username, inviter.password);
      await expect(page.getByRole("alert")).toHaveText("用户名或密码错误，或用户已被封禁");
    } finally {
      await setOption(root, "QuotaForInviter", "0");
      await root.api.dispose();
    }
  });

  test("root sees no way to delete its own account", async ({ page }) => {
    await signIn(page, "root", "123456");
    await page.goto("/setting");
    await expect(page.getByRole("heading", { name: "删除账户" })).toBeVisible();
    await expect(page.getByText("不能删除超级管理员账户")).toBeVisible();
    await expect(page.getByRole("button", { name: "确认删除" })).toHaveCount(0);
  });
});

test.describe("personal settings with JavaScript", () => {
  test("a click on a model tag copies its name; the invite link has a copy button", async ({
    page,
    context,
    baseURL,
    browserName,
  }) => {
    test.skip(browserName !== "chromium");
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    const root = await rootApi(baseURL!);
    const model = `pc-${uniqueName("m")}`;
    await root.api.post("/api/channel/", {
      headers: root.asRoot,
      data: {
        type: 1,
        name: uniqueName("pch"),
        key: "sk-x",
        base_url: "http://127.0.0.1:9",
        models: model,
        group: "default",
      },
    });
    await root.api.dispose();
    const user = await registerUser(page);
    await signIn(page, user.username, user.password);
    await page.goto("/setting");
    await page.getByTestId("model-tags").getByText(model, { exact: true }).click();
    await expect(page.getByText(said("已复制：{text}", { text: model }))).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(model);
    await page.getByRole("button", { name: "复制" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await page.getByLabel("邀请链接").inputValue(),
    );
  });
});

test.describe("editing one's own account on /user/edit @nojs", () => {
  test("a taken name is refused; a new name is saved and is the one that signs in", async ({ page }) => {
    const { username: taken } = await registerUser(page);
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await page.goto("/setting");
    await page.getByRole("link", { name: "更新个人信息" }).click();
    await expect(page).toHaveURL(/\/user\/edit$/);
    await expect(page.getByLabel("用户名")).toHaveValue(username);

    await page.getByLabel("用户名").fill(taken);
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("用户名已存在，或已注销")).toBeVisible();

    const renamed = uniqueName("n");
    await page.getByLabel("用户名").fill(renamed);
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/setting$/);
    await expect(page.getByText("用户信息更新成功！")).toBeVisible();

    await signOut(page);
    await signInForm(page, username, password);
    await expect(page).not.toHaveURL(/\/token$/);
    await signIn(page, renamed, password);
  });
});
