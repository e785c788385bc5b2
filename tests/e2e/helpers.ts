import { type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { expect } from "./fixtures";

export function uniqueName(prefix = "e"): string {
  return `${prefix}${Math.random().toString(36).slice(2, 9)}`.slice(0, 12);
}

export async function signIn(page: Page, username: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("用户名").fill(username);
  await page.getByLabel("密码").fill(password);
  await page.getByRole("button", { name: "登录" }).click();
}

/**
 * The browser refuses what the form's HTML constraints (from the server's schemas) rule out;
 * a test whose point is the server's own message for such a value turns that check off on the
 * form holding `field` first, as a hand-made request would skip it. Returns whether the browser
 * had refused the field, so the test also shows that it did.
 */
export async function skipBrowserChecks(field: Locator): Promise<{ refusedByBrowser: boolean }> {
  return field.evaluate((el: HTMLInputElement) => {
    const refusedByBrowser = !el.validity.valid;
    if (el.form) el.form.noValidate = true;
    return { refusedByBrowser };
  });
}

/** Registers through the console form and lands on /login. */
export async function registerUser(page: Page, username = uniqueName(), password = "password123") {
  await page.goto("/register");
  await page.getByLabel("用户名").fill(username);
  await page.getByLabel("密码", { exact: true }).fill(password);
  await page.getByLabel("确认密码").fill(password);
  await page.getByRole("button", { name: "注册" }).click();
  await expect(page).toHaveURL(/\/login$/);
  return { username, password };
}

export async function signOut(page: Page) {
  await page.getByTestId("user-menu").click();
  await page.getByRole("button", { name: "退出" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Signs in through /api (the context keeps the cookie) and returns the id for New-Api-User. */
export async function apiLogin(request: APIRequestContext, username: string, password: string): Promise<number> {
  const res = await request.post("/api/user/login", { data: { username, password } });
  return ((await res.json()) as { data: { id: number } }).data.id;
}

/** Saves an option as root (the context must be signed in as root). */
export async function setOption(request: APIRequestContext, key: string, value: string) {
  const res = await request.put("/api/option/", { headers: { "New-Api-User": "1" }, data: { key, value } });
  expect(((await res.json()) as { success: boolean }).success).toBe(true);
}

/**
 * Adds entries to a JSON-map option (ModelPrice, ModelRatio…) as root, keeping what is there:
 * tests share one server, so replacing a whole map would take prices away from later tests.
 */
export async function mergeOption(request: APIRequestContext, key: string, entries: Record<string, number>) {
  const all = (
    (await (await request.get("/api/option/", { headers: { "New-Api-User": "1" } })).json()) as {
      data: { key: string; value: string }[];
    }
  ).data;
  const current = JSON.parse(all.find((o) => o.key === key)?.value || "{}") as Record<string, number>;
  await setOption(request, key, JSON.stringify({ ...current, ...entries }));
}

/**
 * Picks a channel type on the channel form and waits for the form to be re-rendered for it:
 * with script the choice posts by itself (切换类型 is pressed for you); without, press it.
 */
export async function pickChannelType(page: Page, label: string, javaScriptEnabled: boolean) {
  // A choice made before the enhancement script is listening would not post by itself.
  if (javaScriptEnabled) await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
  const switched = page.waitForResponse(
    (r) => r.request().method() === "POST" && (r.request().postData() ?? "").includes("intent=switch-type"),
  );
  // The switch posts the form and a new page replaces this one: marked, this page is told from the
  // new one, which a slow machine may not have shown yet when the post's answer is in.
  await page.locator("html").evaluate((html) => html.setAttribute("data-before-switch", ""));
  await page.getByLabel("类型").selectOption({ label });
  if (!javaScriptEnabled) await page.getByRole("button", { name: "切换类型" }).click();
  await switched;
  await expect(page.locator("html[data-before-switch]")).toHaveCount(0);
  await page.waitForLoadState();
  await expect(page.getByLabel("类型").locator("option:checked")).toHaveText(label);
}
