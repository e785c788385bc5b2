import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { formatTable, kb, meterTransfer } from "../support/page-transfer";
import { apiLogin, mergeOption, uniqueName } from "./helpers";

/**
 * The page-weight budgets (decision 032). A light page is server-rendered HTML, its CSS and the small enhancement
 * script; a page that opts in to the client runtime (handle.hydrate) may ship React and Remix.
 */
const BUDGETS = {
  light: { js: 5 * 1024, total: 40 * 1024 },
  script: { js: 100 * 1024, total: 130 * 1024 },
} as const;
type Kind = keyof typeof BUDGETS;

/** Every console page, as whom it is read (the sign-in pages signed out, the rest as root). */
const PAGES: { path: string; kind: Kind; as: "guest" | "root" }[] = [
  { path: "/", kind: "light", as: "root" },
  { path: "/about", kind: "light", as: "root" },
  { path: "/login", kind: "light", as: "guest" },
  { path: "/register", kind: "light", as: "guest" },
  { path: "/token", kind: "light", as: "root" },
  { path: "/channel", kind: "light", as: "root" },
  { path: "/user", kind: "light", as: "root" },
  { path: "/redemption", kind: "light", as: "root" },
  { path: "/log", kind: "light", as: "root" },
  { path: "/topup", kind: "light", as: "root" },
  { path: "/pricing", kind: "light", as: "root" },
  { path: "/setting", kind: "light", as: "root" },
  { path: "/setting?tab=operation", kind: "light", as: "root" },
  { path: "/setting?tab=system", kind: "light", as: "root" },
  { path: "/setting?tab=other", kind: "light", as: "root" },
  { path: "/detail", kind: "light", as: "root" },
  { path: "/midjourney", kind: "light", as: "root" },
  { path: "/task", kind: "light", as: "root" },
  { path: "/playground", kind: "script", as: "root" },
];

/** What React prints when server HTML and the first client render differ (development and production builds). */
const HYDRATION_ERROR = /hydrat|did not match|Minified React error #(418|423|425)/i;

let upstream: MockUpstream;
let model: string;
let rootState: Awaited<ReturnType<APIRequestContext["storageState"]>>;

async function newContext(browser: Browser, baseURL: string | undefined, as: "guest" | "root", javaScriptEnabled = true) {
  return browser.newContext({ baseURL, javaScriptEnabled, ...(as === "root" ? { storageState: rootState } : {}) });
}

/**
 * Pages with something on them, as a running gateway has: a channel answering a priced model,
 * a few tokens of root's and the calls they made (usage log rows, dashboard figures).
 */
test.beforeAll(async ({ browser }, testInfo) => {
  upstream = await startOpenAiMock();
  model = uniqueName("pw");
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const request = context.request;
  await apiLogin(request, "root", "123456");
  const root = { "New-Api-User": "1" };
  const channel = await request.post("/api/channel/", { headers: root, data: { type: 1, name: uniqueName("pwch"), key: "sk-x", base_url: upstream.url, models: model, group: "default" } });
  expect(((await channel.json()) as { success: boolean }).success).toBe(true);
  await mergeOption(request, "ModelPrice", { [model]: 0.01 });
  const names = [0, 1, 2].map(() => uniqueName("pwt"));
  for (const name of names) {
    await request.post("/api/token/", { headers: root, data: { name, remain_quota: 0, unlimited_quota: true, expired_time: -1 } });
  }
  const tokens = ((await (await request.get("/api/token/?p=0&size=100", { headers: root })).json()) as { data: { id: number; name: string }[] }).data;
  const tokenId = tokens.find((t) => t.name === names[0])!.id;
  const key = ((await (await request.get(`/api/token/${tokenId}/key`, { headers: root })).json()) as { data: { key: string } }).data.key;
  for (let i = 0; i < 5; i++) {
    const reply = await request.post("/v1/chat/completions", { headers: { Authorization: `Bearer ${key}` }, data: { model, messages: [{ role: "user", content: "hi" }] } });
    expect(reply.status()).toBe(200);
  }
  rootState = await context.storageState();
  await context.close();
});
test.afterAll(async () => upstream.close());

test.describe("page weight", () => {
  test("every console page loaded cold stays within its budget of script and bytes", async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const rows: { path: string; kind: Kind; js: number; total: number; ok: boolean }[] = [];
    for (const { path, kind, as } of PAGES) {
      const context = await newContext(browser, baseURL, as);
      const page = await context.newPage();
      const meter = await meterTransfer(page);
      const response = await page.goto(path, { waitUntil: "load" });
      // What a page fetches once running (route manifests, lazy modules) is part of its cost.
      await page.waitForLoadState("networkidle");
      // The page itself, not a sign-in redirect or an error page, was weighed.
      expect(response?.status(), path).toBe(200);
      expect(page.url(), path).toBe(new URL(path, baseURL).toString());
      const { jsBytes, totalBytes } = meter.totals();
      const budget = BUDGETS[kind];
      rows.push({ path, kind, js: jsBytes, total: totalBytes, ok: jsBytes <= budget.js && totalBytes <= budget.total });
      await context.close();
    }
    const table = formatTable(
      ["page", "kind", "JS KB", "total KB", "budget (JS/total KB)", "ok"],
      rows.map((r) => [r.path, r.kind, kb(r.js), kb(r.total), `${kb(BUDGETS[r.kind].js)} / ${kb(BUDGETS[r.kind].total)}`, r.ok ? "ok" : "OVER"]),
    );
    console.log(`Cold page weight (gzipped bytes on the wire, cache disabled):\n${table}`);
    expect(rows.filter((r) => !r.ok).map((r) => r.path), `pages over budget:\n${table}`).toEqual([]);
  });
});

test.describe("light pages @nojs", () => {
  test("list and form pages load no framework script, only the enhancement script", async ({ browser, baseURL, javaScriptEnabled }) => {
    test.setTimeout(60_000);
    // Every page's faults are gathered, so one run names each page that still ships the framework.
    const faults: string[] = [];
    for (const { path, as } of PAGES.filter((p) => p.kind === "light")) {
      const context = await newContext(browser, baseURL, as, javaScriptEnabled);
      const page = await context.newPage();
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const html = await response!.text();
      const found: string[] = [];
      if (/<script[^>]*type="module"/.test(html)) found.push("a module script");
      if (/rel="modulepreload"/.test(html)) found.push("modulepreload");
      if (html.includes("__remixContext")) found.push("the Remix context in its HTML");
      // Any script a light page does load is the one small enhancement script.
      for (const [, src] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) {
        if (!/^\/assets\/enhance-[\w-]+\.js$/.test(src!)) found.push(`script ${src}`);
      }
      if (javaScriptEnabled && (await page.evaluate(() => "__remixContext" in window))) found.push("window.__remixContext");
      if (found.length) faults.push(`${path}: ${found.join(", ")}`);
      await context.close();
    }
    expect(faults).toEqual([]);
  });
});

test.describe("hydrated pages", () => {
  test("the playground hydrates without a mismatch and streams a chat reply", async ({ browser, baseURL }) => {
    const context = await newContext(browser, baseURL, "root");
    const page = await context.newPage();
    const logged: string[] = [];
    page.on("console", (message) => logged.push(message.text()));
    page.on("pageerror", (error) => logged.push(error.message));
    await page.goto("/playground");
    await page.getByLabel("模型").selectOption(model);
    await page.getByLabel("消息").fill("Say hi");
    await page.getByRole("button", { name: "发送" }).click();
    // The streamed reply (the form post without JavaScript answers "Hello there.") proves the
    // page is running React, so any hydration error has been printed by now.
    await expect(page.locator('[data-role="assistant"]').last()).toHaveText("Hi there.");
    await expect(page.locator('[data-role="user"]').last()).toHaveText("Say hi");
    expect(logged.filter((text) => HYDRATION_ERROR.test(text))).toEqual([]);
    await context.close();
  });
});
