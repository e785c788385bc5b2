import { type Locator, type Page } from "@playwright/test";
import { expect, test, written } from "./fixtures";
import { signIn } from "./helpers";

/**
 * With the enhancement script the browser's refusal bubble says what the server would: the
 * spec's message, not the browser's own "Please fill out this field.". The constraints stay, so
 * nothing is posted.
 */
type Case = {
  form: string;
  as: "guest" | "root";
  path: string;
  /** Fills what the case needs and returns the control the browser refuses. */
  fill: (page: Page) => Promise<Locator>;
  submit: string;
  message: string;
};

const CASES: Case[] = [
  {
    form: "login: empty username",
    as: "guest",
    path: "/login",
    fill: async (p) => p.getByLabel("用户名"),
    submit: "登录",
    message: "请输入用户名和密码！",
  },
  {
    form: "login: empty password",
    as: "guest",
    path: "/login",
    fill: async (p) => {
      await p.getByLabel("用户名").fill("someone");
      return p.getByLabel("密码");
    },
    submit: "登录",
    message: "请输入用户名和密码！",
  },
  {
    form: "register: empty username",
    as: "guest",
    path: "/register",
    fill: async (p) => p.getByLabel("用户名"),
    submit: "注册",
    message: "请输入用户名",
  },
  {
    form: "register: short password",
    as: "guest",
    path: "/register",
    fill: async (p) => {
      await p.getByLabel("用户名").fill("someone");
      await p.getByLabel("密码", { exact: true }).fill("abc");
      return p.getByLabel("密码", { exact: true });
    },
    submit: "注册",
    message: "密码长度不得小于 8 位！",
  },
  {
    form: "redeem: empty code",
    as: "root",
    path: "/topup",
    fill: async (p) => p.getByLabel("兑换码"),
    submit: "兑换",
    message: "请输入兑换码！",
  },
  {
    form: "token: empty name",
    as: "root",
    path: "/token/add",
    fill: async (p) => p.getByLabel("名称"),
    submit: "提交",
    message: "请输入名称",
  },
  {
    form: "token: count over 100",
    as: "root",
    path: "/token/add",
    fill: async (p) => {
      await p.getByLabel("名称").fill("n");
      await p.getByLabel("新建数量").fill("101");
      return p.getByLabel("新建数量");
    },
    submit: "提交",
    message: "数量不能超过 100",
  },
  {
    form: "settings: email to bind",
    as: "root",
    path: "/setting",
    fill: async (p) => p.getByLabel("新邮箱"),
    submit: "绑定",
    message: "请输入邮箱！",
  },
];

test.describe("validation bubbles in the spec's words", () => {
  test("each form's refused control carries the server's message, and nothing is posted", async ({ page }) => {
    test.setTimeout(60_000);
    await signIn(page, "root", "123456");
    await expect(page).toHaveURL(/\/token$/);
    const root = await page.context().storageState();
    const guest = await page
      .context()
      .browser()!
      .newContext({ baseURL: new URL(page.url()).origin });
    const failures: string[] = [];
    for (const c of CASES) {
      const tab = c.as === "root" ? page : await guest.newPage();
      await tab.goto(c.path);
      await tab.locator("html[data-enhanced]").waitFor({ state: "attached" });
      const control = await c.fill(tab);
      const posts: string[] = [];
      tab.on("request", (r) => (r.method() === "POST" ? posts.push(r.url()) : undefined));
      await tab.getByRole("button", { name: c.submit, exact: true }).click();
      await tab.waitForTimeout(200);
      const message = await control.evaluate((el: HTMLInputElement) => el.validationMessage);
      if (message !== written(c.message) || posts.length)
        failures.push(`${c.form}: "${message}"${posts.length ? " (posted)" : ""}`);
      // Typing clears it: the next check is the browser's constraint again, not a stale message.
      await control.fill(c.form.includes("count") ? "5" : "something-long-enough");
      expect(await control.evaluate((el: HTMLInputElement) => el.validity.customError), c.form).toBe(false);
      if (tab !== page) await tab.close();
    }
    await guest.close();
    expect(root.cookies.length).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});
