import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { codeIn, resetLinkIn, SMTP_PASSWORD, SMTP_USER, startTestSmtp, type TestSmtp } from "../mocks/smtp-server";
import { signIn, skipBrowserChecks, uniqueName } from "./helpers";

/**
 * End to end: root turns on email verification with an SMTP server, a new user
 * registers with a code from that server, and resets a forgotten password — with JavaScript on
 * and off. The SMTP server is a real one on loopback, started here; the options are restored.
 */
let smtp: TestSmtp;
let root: APIRequestContext;

async function setOption(key: string, value: string) {
  const res = await root.put("/api/option/", { headers: { "New-Api-User": "1" }, data: { key, value } });
  expect(((await res.json()) as { success: boolean }).success, `${key}=${value}`).toBe(true);
}

/** An account registered through the API with a code read from the mailbox. */
async function registerWithCode(username: string, password: string, email: string) {
  expect((await root.get(`/api/verification?email=${email}`)).ok()).toBe(true);
  const code = codeIn(await smtp.nextMailTo(email));
  const registered = await root.post("/api/user/register", {
    data: { username, password, password2: password, email, verification_code: code },
  });
  expect(((await registered.json()) as { success: boolean }).success).toBe(true);
}

test.beforeAll(async ({ playwright, consoleServer }) => {
  smtp = await startTestSmtp();
  const baseURL = consoleServer.url;
  root = await playwright.request.newContext({ baseURL });
  expect((await root.post("/api/user/login", { data: { username: "root", password: "123456" } })).ok()).toBe(true);
  for (const [key, value] of [
    ["SMTPServer", "127.0.0.1"],
    ["SMTPPort", String(smtp.port)],
    ["SMTPAccount", SMTP_USER],
    ["SMTPToken", SMTP_PASSWORD],
    ["SMTPFrom", "noreply@switchyard.test"],
    ["ServerAddress", baseURL],
    ["EmailVerificationEnabled", "true"],
  ] as const)
    await setOption(key, value);
});

test.afterAll(async () => {
  for (const [key, value] of [
    ["EmailVerificationEnabled", "false"],
    ["SMTPServer", ""],
    ["SMTPPort", "587"],
    ["SMTPAccount", ""],
    ["SMTPFrom", ""],
    ["ServerAddress", ""],
  ] as const)
    await setOption(key, value);
  await root.dispose();
  await smtp.close();
});

test.describe("email sign-in flows @nojs", () => {
  test("a new user registers with the code mailed by the operator's SMTP server", async ({ page }) => {
    const username = uniqueName("em");
    const email = `${username}@example.com`;
    const password = "password123";
    await page.goto("/register");
    await page.getByLabel("用户名").fill(username);
    await page.getByLabel("密码", { exact: true }).fill(password);
    await page.getByLabel("确认密码").fill(password);
    await page.getByLabel("邮箱").fill(email);
    await page.getByRole("button", { name: "获取验证码" }).click();
    await expect(page.getByText("验证码发送成功，请检查你的邮箱！")).toBeVisible();
    // What was typed is still there (the passwords are not sent back to the page).
    await expect(page.getByLabel("用户名")).toHaveValue(username);
    await expect(page.getByLabel("邮箱")).toHaveValue(email);
    const code = codeIn(await smtp.nextMailTo(email));

    await page.getByLabel("密码", { exact: true }).fill(password);
    await page.getByLabel("确认密码").fill(password);
    await page.getByLabel("验证码").fill(code === "000000" ? "000001" : "000000");
    await page.getByRole("button", { name: "注册" }).click();
    await expect(page.getByText("验证码错误或已过期")).toBeVisible();

    await page.getByLabel("密码", { exact: true }).fill(password);
    await page.getByLabel("确认密码").fill(password);
    await page.getByLabel("验证码").fill(code);
    await page.getByRole("button", { name: "注册" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("注册成功！")).toBeVisible();
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token/);
  });

  test("a forgotten password: 忘记密码 → reset mail → link → new password shown once → sign in with it", async ({
    page,
  }) => {
    const username = uniqueName("rp");
    const email = `${username}@example.com`;
    await registerWithCode(username, "old-password", email);

    await page.goto("/login");
    await page.getByRole("link", { name: "忘记密码" }).click();
    await expect(page).toHaveURL(/\/reset$/);
    await page.getByLabel("邮箱").fill(email);
    await page.getByRole("button", { name: "发送重置邮件" }).click();
    await expect(page.getByText("重置邮件发送成功，请检查你的邮箱！")).toBeVisible();

    const link = resetLinkIn(await smtp.nextMailTo(email));
    await page.goto(link.toString());
    await expect(page.getByLabel("邮箱")).toHaveValue(email);
    await page.getByRole("button", { name: "确认重置密码" }).click();
    const shown = page.getByTestId("new-password");
    await expect(shown).toHaveValue(/^[0-9A-Za-z]{12}$/);
    const password = await shown.inputValue();

    // The link works once.
    await page.goto(link.toString());
    await page.getByRole("button", { name: "确认重置密码" }).click();
    await expect(page.getByText("重置链接非法或已过期")).toBeVisible();

    await signIn(page, username, "old-password");
    await expect(page.getByText("用户名或密码错误，或用户已被封禁")).toBeVisible();
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token/);
  });

  test("a signed-in user binds an email from personal settings with the mailed code", async ({ page }) => {
    // Registered with a code for one address; binds another.
    const username = uniqueName("eb");
    const password = "password123";
    await registerWithCode(username, password, `${username}@first.example.com`);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token/);
    await page.goto("/setting");
    await expect(page.getByText(`当前邮箱：${username}@first.example.com`)).toBeVisible();
    const email = `${username}@example.com`;
    await page.getByRole("button", { name: "绑定" }).click();
    // The browser asks for the address first (required); posted anyway, the server asks too.
    expect(await skipBrowserChecks(page.getByLabel("新邮箱"))).toEqual({ refusedByBrowser: true });
    await page.getByRole("button", { name: "绑定" }).click();
    await expect(page.getByText("请输入邮箱！")).toBeVisible();
    await page.getByLabel("新邮箱").fill(email);
    await page.getByRole("button", { name: "获取验证码" }).click();
    await expect(page.getByText("验证码发送成功，请检查你的邮箱！")).toBeVisible();
    const code = codeIn(await smtp.nextMailTo(email));
    await expect(page.getByLabel("新邮箱")).toHaveValue(email);
    await page.getByLabel("验证码").fill(code);
    await page.getByRole("button", { name: "绑定" }).click();
    await expect(page.getByText("邮箱账户绑定成功！")).toBeVisible();
    await expect(page.getByText(`当前邮箱：${email}`)).toBeVisible();
  });
});
