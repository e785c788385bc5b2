import { expect, test, said } from "./fixtures";
import { registerUser, signIn, signOut, skipBrowserChecks, uniqueName } from "./helpers";

test.describe("sign-in @nojs", () => {
  test("root signs in with the default password, is warned, lands on /token and signs out", async ({ page }) => {
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    await expect(page.getByText("登录成功！")).toBeVisible();
    const dialog = page.getByTestId("default-password-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("您正在使用默认密码！请立刻修改默认密码！");
    await dialog.getByRole("button", { name: "稍后" }).click();
    await expect(dialog).toBeHidden();
    await signOut(page);
    await page.goto("/token");
    await expect(page).toHaveURL(/\/login/);
  });

  test("a wrong password shows the reference's message", async ({ page }) => {
    await signIn(page, "root", "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("用户名或密码错误，或用户已被封禁");
    await expect(page).toHaveURL(/\/login/);
  });

  test("an empty form asks for both fields", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "登录" }).click();
    // The browser asks first (required, from the schema); posted anyway, the server asks too.
    await expect(page).toHaveURL(/\/login$/);
    expect(await skipBrowserChecks(page.getByLabel("用户名"))).toEqual({ refusedByBrowser: true });
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByText("请输入用户名和密码！").first()).toBeVisible();
  });

  test("expired=true explains why the user is back at sign-in", async ({ page }) => {
    await page.goto("/login?expired=true");
    await expect(page.getByText("未登录或登录已过期，请重新登录！")).toBeVisible();
  });

  test("a session cookie whose session is gone lands on /login with 未登录或登录已过期; a first visit without one does not", async ({
    page,
    context,
  }) => {
    const notice = page.getByText("未登录或登录已过期，请重新登录！");
    await page.goto("/token");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Ftoken$/);
    await expect(page.getByRole("button", { name: "登录" })).toBeVisible();
    await expect(notice).toHaveCount(0);

    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    const session = (await context.cookies()).find((c) => c.name === "session")!;
    // Signing out deletes the session row; putting the old cookie back is a browser whose session ended.
    await signOut(page);
    await context.addCookies([session]);
    await page.goto("/token");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Ftoken&expired=true$/);
    await expect(notice).toBeVisible();
    // The dead cookie was cleared with that answer: the notice is not repeated on the next visit.
    await page.goto("/token");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Ftoken$/);
    await expect(notice).toHaveCount(0);
  });

  test("a guarded page sends a visitor to /login and back after sign-in", async ({ page }) => {
    await page.goto("/setting");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsetting/);
    const { username, password } = await registerUser(page);
    await page.goto("/setting");
    await page.getByLabel("用户名").fill(username);
    await page.getByLabel("密码").fill(password);
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page).toHaveURL(/\/setting$/);
    await expect(page.getByRole("heading", { name: "个人设置" })).toBeVisible();
  });
});

test.describe("sign-in hardening @nojs", () => {
  test("redirectTo=/<TAB>/host after sign-in stays on this site", async ({ page, baseURL }) => {
    await page.goto("/login?redirectTo=%2F%09%2F127.0.0.1%3A18190%2F");
    await page.getByLabel("用户名").fill("root");
    await page.getByLabel("密码").fill("123456");
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page).toHaveURL(`${baseURL}/token`);
  });

  test("a sign-in whose cookie the browser did not keep says so instead of silently showing the form again", async ({
    page,
  }) => {
    // Stand-in for a browser that refuses the cookie (a Secure one over plain HTTP, cookies off).
    await page.route("**/login**", async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      const response = await route.fetch({ maxRedirects: 0 });
      // route.fetch shares the context's cookie jar: empty it, as the refusing browser would be.
      await page.context().clearCookies();
      const headers = Object.fromEntries(
        Object.entries(response.headers()).filter(([name]) => name.toLowerCase() !== "set-cookie"),
      );
      await route.fulfill({ response, headers });
    });
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/login\?signedIn=1/);
    await expect(
      page.getByText(
        said(
          "登录成功，但浏览器没有保存登录 Cookie，因此仍未登录。请允许本站使用 Cookie；若经反向代理访问，请管理员检查 X-Forwarded-Proto 与 TRUST_PROXY 设置。",
        ),
      ),
    ).toBeVisible();
  });
});

test.describe("registration @nojs", () => {
  test("shows the product's validation messages, then registers", async ({ page }) => {
    const username = uniqueName();
    await page.goto("/register");
    await page.getByLabel("用户名").fill(username);
    await page.getByLabel("密码", { exact: true }).fill("short");
    await page.getByLabel("确认密码").fill("short");
    await page.getByRole("button", { name: "注册" }).click();
    // The browser refuses it first (minlength, from the schema); posted anyway, the server says why.
    expect(await skipBrowserChecks(page.getByLabel("密码", { exact: true }))).toEqual({ refusedByBrowser: true });
    await page.getByRole("button", { name: "注册" }).click();
    await expect(page.getByText("密码长度不得小于 8 位！")).toBeVisible();

    await page.getByLabel("密码", { exact: true }).fill("password123");
    await page.getByLabel("确认密码").fill("password124");
    await page.getByRole("button", { name: "注册" }).click();
    await expect(page.getByText("两次输入的密码不一致")).toBeVisible();

    await page.getByLabel("确认密码").fill("password123");
    await page.getByLabel("密码", { exact: true }).fill("password123");
    await page.getByRole("button", { name: "注册" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("注册成功！")).toBeVisible();
    await signIn(page, username, "password123");
    await expect(page).toHaveURL(/\/token$/);
  });

  test("a taken username is refused", async ({ page }) => {
    const { username } = await registerUser(page);
    await page.goto("/register");
    await page.getByLabel("用户名").fill(username);
    await page.getByLabel("密码", { exact: true }).fill("password123");
    await page.getByLabel("确认密码").fill("password123");
    await page.getByRole("button", { name: "注册" }).click();
    await expect(page.getByText("用户名已存在，或已注销")).toBeVisible();
  });

  test("an invite link's aff code rides along to registration", async ({ page }) => {
    await page.goto("/register?aff=ABCD");
    await expect(page.locator('input[name="aff_code"]')).toHaveValue("ABCD");
    await page.goto("/register");
    await expect(page.locator('input[name="aff_code"]')).toHaveValue("ABCD");
  });
});

test.describe("personal settings @nojs", () => {
  test("password change needs the old password", async ({ page }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    await page.goto("/setting");
    await page.getByLabel("原密码").fill("wrong-old-pass");
    await page.getByLabel("新密码", { exact: true }).fill("brandnew123");
    await page.getByLabel("确认新密码").fill("brandnew123");
    await page.getByRole("button", { name: "确认修改" }).click();
    await expect(page.getByText("原密码错误")).toBeVisible();
    await page.getByLabel("原密码").fill(password);
    await page.getByLabel("新密码", { exact: true }).fill("brandnew123");
    await page.getByLabel("确认新密码").fill("brandnew123");
    await page.getByRole("button", { name: "确认修改" }).click();
    await expect(page.getByText("密码修改成功！")).toBeVisible();
  });
});
