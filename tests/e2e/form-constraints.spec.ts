import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { registerUser, signIn, uniqueName } from "./helpers";

/** Records every POST the page sends, to show the browser kept a refused form to itself. */
function watchPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  return posts;
}

// The HTML constraints come from the server's zod schemas (web/form-constraint.server.ts); they
// hold with and without JavaScript, and the server still refuses what they would have caught.
test.describe("forms checked by the browser from the server's schemas @nojs", () => {
  test("register: a 3-character password is refused by the browser, and by the server when posted anyway", async ({
    page,
    request,
  }) => {
    const username = uniqueName();
    await page.goto("/register");
    const posts = watchPosts(page);
    await page.getByLabel("用户名").fill(username);
    const password = page.getByLabel("密码", { exact: true });
    await password.fill("abc");
    await page.getByLabel("确认密码").fill("abc");
    await page.getByRole("button", { name: "注册" }).click();

    await expect(password).toHaveAttribute("minlength", "8");
    expect(
      await password.evaluate((el: HTMLInputElement) => ({ valid: el.validity.valid, tooShort: el.validity.tooShort })),
    ).toEqual({ valid: false, tooShort: true });
    // A posted form would have navigated (no JS) or shown the server's message (JS); neither happens.
    await page.waitForTimeout(300);
    expect(posts).toEqual([]);
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByText("密码长度不得小于 8 位！")).toHaveCount(0);

    // The same values posted without the browser's check: the server is still the authority.
    const refused = await request.post("/register", { form: { username, password: "abc", password2: "abc" } });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("密码长度不得小于 8 位！");
    await signIn(page, username, "abc");
    await expect(page.getByText("用户名或密码错误，或用户已被封禁")).toBeVisible();
  });

  test("token form: a missing name and a count over 100 are refused in the browser; quick-fill buttons still work on an empty form", async ({
    page,
  }) => {
    const { username, password } = await registerUser(page);
    await signIn(page, username, password);
    await expect(page).toHaveURL(/\/token$/);
    await page.goto("/token/add");
    const name = page.getByLabel("名称");
    const count = page.getByLabel("新建数量");
    await expect(name).toHaveAttribute("required", "");
    await expect(count).toHaveAttribute("max", "100");

    // A quick-fill button posts (without JS) or fills in place (with JS) whatever the fields hold.
    await page.getByRole("button", { name: "20个" }).click();
    await expect(count).toHaveValue("20");

    const posts = watchPosts(page);
    await count.fill("101");
    await page.getByRole("button", { name: "提交" }).click();
    expect(await name.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    expect(await count.evaluate((el: HTMLInputElement) => el.validity.rangeOverflow)).toBe(true);
    await page.waitForTimeout(300);
    expect(posts).toEqual([]);
    await expect(page).toHaveURL(/\/token\/add$/);

    await name.fill("constrained");
    await count.fill("2");
    await page.getByRole("button", { name: "提交" }).click();
    await expect(page).toHaveURL(/\/token$/);
    await expect(page.getByText("令牌创建成功，共创建 2 个令牌")).toBeVisible();
  });
});
