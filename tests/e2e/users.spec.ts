import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { registerUser, signIn, uniqueName } from "./helpers";

/** The /user console page (管理用户). */

async function asRoot(page: Page) {
  await signIn(page, "root", "123456");
  await expect(page).toHaveURL(/\/token$/);
}

/** The row of `username` (a deregistered account's name gains a #deleted-<id> suffix, so match by text). */
function rowOf(page: Page, username: string) {
  return page.locator('[data-testid^="user-row-"]').filter({ hasText: username });
}

async function search(page: Page, keyword: string) {
  await page.goto("/user");
  await page.getByLabel("关键字").fill(keyword);
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`keyword=${keyword}`));
}

/** A row action behind its confirmation: open it, then confirm inside the row. */
async function confirmAction(page: Page, action: string, username: string) {
  await page.getByTestId(`${action}-${username}`).click();
  await rowOf(page, username).getByRole("button", { name: "确定", exact: true }).click();
  await expect(page.getByText("操作成功完成！")).toBeVisible();
}

async function addQuota(page: Page, username: string, delta: string) {
  await page.getByTestId(`add-quota-${username}`).click();
  await rowOf(page, username).getByLabel("增加的额度（负数为扣减）").fill(delta);
  await rowOf(page, username).getByRole("button", { name: "确定添加" }).click();
  await expect(page.getByText("用户信息更新成功！")).toBeVisible();
}

/** Registers a user and makes them an admin through /api as root (a context of its own). */
async function apiAdmin(request: APIRequestContext): Promise<{ username: string; password: string }> {
  const username = uniqueName("ad");
  const password = "password123";
  const registered = await request.post("/api/user/register", { data: { username, password, password2: password } });
  expect(((await registered.json()) as { success: boolean }).success).toBe(true);
  const login = await request.post("/api/user/login", { data: { username: "root", password: "123456" } });
  const rootId = ((await login.json()) as { data: { id: number } }).data.id;
  const found = await request.get(`/api/user/search?keyword=${username}`, {
    headers: { "New-Api-User": String(rootId) },
  });
  const id = ((await found.json()) as { data: { id: number }[] }).data[0]!.id;
  const promoted = await request.post("/api/user/manage", {
    headers: { "New-Api-User": String(rootId) },
    data: { id, action: "promote" },
  });
  expect(((await promoted.json()) as { success: boolean }).success).toBe(true);
  return { username, password };
}

test.describe("user management @nojs", () => {
  test("root adds a user, finds, edits, gives quota, promotes, demotes, bans, enables and deregisters them", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await asRoot(page);
    await page.getByRole("navigation", { name: "侧边菜单" }).getByRole("link", { name: "用户管理" }).click();
    await expect(page.getByRole("heading", { name: "管理用户" })).toBeVisible();

    const username = uniqueName("u");
    await page.getByRole("link", { name: "添加用户" }).click();
    await expect(page.getByRole("heading", { name: "添加用户" })).toBeVisible();
    await page.getByLabel("用户名").fill(username);
    await page.getByLabel("显示名称").fill("新来的");
    await page.getByLabel("密码").fill("password123");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText("用户账户创建成功！")).toBeVisible();

    await search(page, username);
    await expect(page.locator('[data-testid^="user-row-"]')).toHaveCount(1);
    const row = rowOf(page, username);
    for (const text of ["新来的", "default", "普通用户", "已激活", "无"]) await expect(row).toContainText(text);

    await row.getByRole("link", { name: "编辑" }).click();
    await expect(page.getByRole("heading", { name: "更新用户信息" })).toBeVisible();
    await expect(page.getByText("至少 8 位")).toBeVisible();
    await page.getByLabel("显示名称").fill("改名了");
    await page.getByLabel("分组").selectOption("vip");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText("用户信息更新成功！")).toBeVisible();
    await expect(rowOf(page, username)).toContainText("改名了");
    await expect(rowOf(page, username).getByTestId("user-group")).toHaveText("vip");

    // Every step changes the balance, so each assertion waits for its own step. A huge negative
    // amount empties the balance and stops at zero; then $2 (1M units) goes on.
    await search(page, username);
    await addQuota(page, username, "1000000");
    await expect(rowOf(page, username).getByTestId("user-quota")).not.toContainText("剩余 $0.00");
    await addQuota(page, username, "-1000000000000");
    await expect(rowOf(page, username).getByTestId("user-quota")).toContainText("剩余 $0.00");
    await addQuota(page, username, "1000000");
    await expect(rowOf(page, username).getByTestId("user-quota")).toContainText("剩余 $2.00");
    await addQuota(page, username, "-5000000");
    await expect(rowOf(page, username).getByTestId("user-quota")).toContainText("剩余 $0.00");

    await confirmAction(page, "promote", username);
    await expect(rowOf(page, username).getByTestId("user-role")).toHaveText("管理员");
    await expect(page.getByTestId(`promote-${username}`)).toHaveCount(0);
    await confirmAction(page, "demote", username);
    await expect(rowOf(page, username).getByTestId("user-role")).toHaveText("普通用户");

    await confirmAction(page, "disable", username);
    await expect(rowOf(page, username).getByTestId("user-status")).toHaveText("已封禁");
    await confirmAction(page, "enable", username);
    await expect(rowOf(page, username).getByTestId("user-status")).toHaveText("已激活");

    await confirmAction(page, "delete", username);
    await expect(rowOf(page, username).getByTestId("user-status")).toHaveText("已注销");
    await expect(rowOf(page, username).getByTestId("user-operations")).toBeEmpty();
  });

  test("adding a name that is taken shows the server's refusal in the form", async ({ page }) => {
    await asRoot(page);
    await page.goto("/user/add");
    await page.getByLabel("用户名").fill("root");
    await page.getByLabel("密码").fill("password123");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("用户名已存在，或已注销")).toBeVisible();
  });

  test("an admin gets no operations on another admin's row, root's row or their own; only some on an ordinary user's", async ({
    page,
    request,
  }) => {
    const other = await apiAdmin(request);
    const me = await apiAdmin(request);
    const ordinary = uniqueName("o");
    await asRoot(page);
    await page.goto("/user/add");
    await page.getByLabel("用户名").fill(ordinary);
    await page.getByLabel("密码").fill("password123");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page.getByText("用户账户创建成功！")).toBeVisible();
    await page.context().clearCookies();

    await signIn(page, me.username, me.password);
    await expect(page).toHaveURL(/\/token$/);
    for (const name of [other.username, me.username, "root"]) {
      await search(page, name);
      await expect(rowOf(page, name).first()).toBeVisible();
      await expect(rowOf(page, name).first().getByTestId("user-operations")).toBeEmpty();
    }
    await search(page, ordinary);
    const row = rowOf(page, ordinary);
    await expect(row.getByRole("link", { name: "编辑" })).toBeVisible();
    await expect(page.getByTestId(`disable-${ordinary}`)).toBeVisible();
    await expect(page.getByTestId(`delete-${ordinary}`)).toBeVisible();
    await expect(page.getByTestId(`promote-${ordinary}`)).toHaveCount(0);
    await expect(page.getByTestId(`demote-${ordinary}`)).toHaveCount(0);
    // Typing the edit address of root is refused with the reason.
    const response = await page.goto("/user/edit/1");
    expect(response?.status()).toBe(403);
    await expect(page.getByText("无权获取同级或更高等级用户的信息")).toBeVisible();
  });

  test("root editing itself sees neither group nor quota", async ({ page }) => {
    await asRoot(page);
    await page.goto("/user/edit/1");
    await expect(page.getByRole("heading", { name: "更新用户信息" })).toBeVisible();
    await expect(page.getByLabel("显示名称")).toBeVisible();
    await expect(page.getByLabel("分组")).toHaveCount(0);
    await expect(page.getByLabel("剩余额度")).toHaveCount(0);
  });

  test("an ordinary user is refused on /user and has no 用户管理 menu item", async ({ page }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    await expect(
      page.getByRole("navigation", { name: "侧边菜单" }).getByRole("link", { name: "用户管理" }),
    ).toHaveCount(0);
    for (const path of ["/user", "/user/add", "/user/edit/1"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { name: "无权进行此操作，权限不足" })).toBeVisible();
    }
  });
});
