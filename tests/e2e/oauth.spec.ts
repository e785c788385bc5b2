import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_GITHUB_APP } from "../mocks/github-oauth";
import { registerUser, signIn, uniqueName } from "./helpers";

/**
 * GitHub sign-in through the browser, against the loopback GitHub the e2e server runs
 * (tests/support/e2e-server.ts): the button, GitHub's authorize page, the callback, /token.
 * Root switches GitHub sign-in on through the options API and every test switches it off again.
 */
async function rootApi(request: APIRequestContext) {
  const login = await request.post("/api/user/login", { data: { username: "root", password: "123456" } });
  const id = String(((await login.json()) as { data: { id: number } }).data.id);
  return async (key: string, value: string) => {
    const res = await request.put("/api/option/", { data: { key, value }, headers: { "New-Api-User": id } });
    expect(((await res.json()) as { success: boolean }).success, `${key}=${value}`).toBe(true);
  };
}

async function enableGitHub(request: APIRequestContext) {
  const setOption = await rootApi(request);
  await setOption("GitHubClientId", E2E_GITHUB_APP.clientId);
  await setOption("GitHubClientSecret", E2E_GITHUB_APP.secret);
  await setOption("GitHubOAuthEnabled", "true");
  return async () => {
    await setOption("GitHubOAuthEnabled", "false");
    await setOption("GitHubClientId", "");
    await setOption("GitHubClientSecret", "");
  };
}

test.describe("GitHub sign-in @nojs", () => {
  test("the login page shows the GitHub button only when enabled; it goes through GitHub's authorize page and lands signed in on /token", async ({
    page,
    request,
  }) => {
    await page.goto("/login");
    await expect(page.getByRole("link", { name: "使用 GitHub 登录" })).toHaveCount(0);
    const restore = await enableGitHub(request);
    try {
      await page.goto("/login");
      await page.getByRole("link", { name: "使用 GitHub 登录" }).click();
      await expect(page.getByRole("heading", { name: "Authorize application" })).toBeVisible();
      const login = uniqueName("gh");
      await page.getByLabel("Username or email address").fill(login);
      await page.getByRole("button", { name: "Authorize" }).click();
      await expect(page).toHaveURL(/\/token$/);
      await expect(page.getByText("登录成功！")).toBeVisible();
      await page.goto("/setting");
      await expect(page.getByRole("heading", { name: "个人设置" })).toBeVisible();
      await expect(page.getByText(/^github_\d+$/).first()).toBeVisible();
      await expect(page.getByTestId("bound-github")).toHaveText(/^\d+$/);
    } finally {
      await restore();
    }
  });

  test("a signed-in user binds GitHub from /setting and sees the bound id; a forged callback shows the failure", async ({
    page,
    request,
  }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    const restore = await enableGitHub(request);
    try {
      await page.goto("/setting");
      await page.getByRole("link", { name: "绑定 GitHub 账号" }).click();
      await page.getByLabel("Username or email address").fill(uniqueName("gh"));
      await page.getByRole("button", { name: "Authorize" }).click();
      await expect(page).toHaveURL(/\/setting$/);
      await expect(page.getByText("GitHub 账户绑定成功！")).toBeVisible();
      await expect(page.getByTestId("bound-github")).toHaveText(/^\d+$/);
      await expect(page.getByRole("link", { name: "绑定 GitHub 账号" })).toHaveCount(0);

      await page.goto("/oauth/github?code=forged&state=forged");
      await expect(page.getByText("操作失败，重定向至登录界面中...")).toBeVisible();
      await expect(page.getByRole("link", { name: "返回设置页" })).toHaveAttribute("href", "/setting");
    } finally {
      await restore();
    }
  });
});

test.describe("WeChat and Telegram on the login page", () => {
  test("WeChat sign-in shows the QR code and a code form; a code the server cannot confirm is reported on /login @nojs", async ({
    page,
    request,
  }) => {
    const setOption = await rootApi(request);
    // Port 9 (discard) on loopback: nothing answers, so the sign-in fails the way an unreachable server does.
    await setOption("WeChatServerAddress", "http://127.0.0.1:9");
    await setOption("WeChatAccountQRCodeImageURL", "/logo.svg");
    await setOption("WeChatAuthEnabled", "true");
    try {
      await page.goto("/login");
      await expect(page.getByRole("img", { name: "微信公众号二维码" })).toBeVisible();
      await page.getByLabel("微信验证码").fill("123456");
      await page.getByRole("button", { name: "微信登录" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("无法连接至微信登录服务器，请稍后重试！")).toBeVisible();
    } finally {
      await setOption("WeChatAuthEnabled", "false");
      await setOption("WeChatServerAddress", "");
      await setOption("WeChatAccountQRCodeImageURL", "");
    }
  });

  test("Telegram sign-in loads Telegram's widget for the configured bot", async ({ page, request }) => {
    const setOption = await rootApi(request);
    await setOption("TelegramBotName", "switchyard_e2e_bot");
    await setOption("TelegramOAuthEnabled", "true");
    try {
      // Telegram's script is not fetched (no test leaves the machine); its tag is what the page controls.
      await page.route("https://telegram.org/**", (route) =>
        route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
      );
      await page.goto("/login");
      const script = page.getByTestId("telegram-login").locator("script");
      await expect(script).toHaveAttribute("data-telegram-login", "switchyard_e2e_bot");
      await expect(script).toHaveAttribute("data-onauth", /switchyardTelegramAuth/);
    } finally {
      await setOption("TelegramOAuthEnabled", "false");
      await setOption("TelegramBotName", "");
    }
  });
});
