import { type APIRequestContext, type Browser } from "@playwright/test";
import { expect, test } from "./fixtures";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { formatTable, kb, meterTransfer } from "../support/page-transfer";
import { apiLogin, mergeOption, uniqueName } from "./helpers";

/**
 * One budget for every page: its server-rendered HTML, its CSS and small plain scripts — the
 * enhancement script, and on the playground its own chat script. No page ships a framework.
 */
const BUDGET = { js: 10 * 1024, total: 40 * 1024 } as const;

/** Every console page, as whom it is read (the sign-in pages signed out, the rest as root). */
const PAGES: { path: string; as: "guest" | "root" }[] = [
  { path: "/", as: "root" },
  { path: "/about", as: "root" },
  { path: "/login", as: "guest" },
  { path: "/register", as: "guest" },
  { path: "/token", as: "root" },
  { path: "/channel", as: "root" },
  { path: "/user", as: "root" },
  { path: "/redemption", as: "root" },
  { path: "/log", as: "root" },
  { path: "/topup", as: "root" },
  { path: "/pricing", as: "root" },
  { path: "/setting", as: "root" },
  { path: "/setting?tab=operation", as: "root" },
  { path: "/setting?tab=system", as: "root" },
  { path: "/setting?tab=other", as: "root" },
  { path: "/detail", as: "root" },
  { path: "/midjourney", as: "root" },
  { path: "/task", as: "root" },
  { path: "/playground", as: "root" },
];

/** The only scripts a page may load: the plain ones under app/enhance/, as built assets. */
const OWN_SCRIPT = /^\/assets\/(enhance|playground-chat)-[\w-]+\.js$/;

let upstream: MockUpstream;
let model: string;
let rootState: Awaited<ReturnType<APIRequestContext["storageState"]>>;

async function newContext(
  browser: Browser,
  baseURL: string | undefined,
  as: "guest" | "root",
  javaScriptEnabled = true,
) {
  return browser.newContext({ baseURL, javaScriptEnabled, ...(as === "root" ? { storageState: rootState } : {}) });
}

/**
 * Pages with something on them, as a running gateway has: a channel answering a priced model,
 * a few tokens of root's and the calls they made (usage log rows, dashboard figures).
 */
test.beforeAll(async ({ browser, consoleServer }) => {
  upstream = await startOpenAiMock();
  model = uniqueName("pw");
  const context = await browser.newContext({ baseURL: consoleServer.url });
  const request = context.request;
  await apiLogin(request, "root", "123456");
  const root = { "New-Api-User": "1" };
  const channel = await request.post("/api/channel/", {
    headers: root,
    data: { type: 1, name: uniqueName("pwch"), key: "sk-x", base_url: upstream.url, models: model, group: "default" },
  });
  expect(((await channel.json()) as { success: boolean }).success).toBe(true);
  await mergeOption(request, "ModelPrice", { [model]: 0.01 });
  const names = [0, 1, 2].map(() => uniqueName("pwt"));
  for (const name of names) {
    await request.post("/api/token/", {
      headers: root,
      data: { name, remain_quota: 0, unlimited_quota: true, expired_time: -1 },
    });
  }
  const tokens = (
    (await (await request.get("/api/token/?p=0&size=100", { headers: root })).json()) as {
      data: { id: number; name: string }[];
    }
  ).data;
  const tokenId = tokens.find((t) => t.name === names[0])!.id;
  const key = (
    (await (await request.get(`/api/token/${tokenId}/key`, { headers: root })).json()) as { data: { key: string } }
  ).data.key;
  for (let i = 0; i < 5; i++) {
    const reply = await request.post("/v1/chat/completions", {
      headers: { Authorization: `Bearer ${key}` },
      data: { model, messages: [{ role: "user", content: "hi" }] },
    });
    expect(reply.status()).toBe(200);
  }
  rootState = await context.storageState();
  await context.close();
});
test.afterAll(async () => upstream.close());

test.describe("page weight", () => {
  test("every console page loaded cold stays within its budget of script and bytes", async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const rows: { path: string; js: number; total: number; foreign: string[]; ok: boolean }[] = [];
    for (const { path, as } of PAGES) {
      const context = await newContext(browser, baseURL, as);
      const page = await context.newPage();
      const meter = await meterTransfer(page);
      const response = await page.goto(path, { waitUntil: "load" });
      // What a page fetches once running (route manifests, lazy modules) is part of its cost.
      await page.waitForLoadState("networkidle");
      // The page itself, not a sign-in redirect or an error page, was weighed.
      expect(response?.status(), path).toBe(200);
      expect(page.url(), path).toBe(new URL(path, baseURL).toString());
      const { jsBytes, totalBytes, resources } = meter.totals();
      // What ran is checked too, not only what the HTML names: nothing fetched a framework later.
      const foreign = resources
        .filter((r) => r.type === "Script" && !OWN_SCRIPT.test(new URL(r.url).pathname))
        .map((r) => new URL(r.url).pathname);
      rows.push({
        path,
        js: jsBytes,
        total: totalBytes,
        foreign,
        ok: jsBytes <= BUDGET.js && totalBytes <= BUDGET.total && foreign.length === 0,
      });
      await context.close();
    }
    const table = formatTable(
      ["page", "JS KB", "total KB", "budget (JS/total KB)", "ok"],
      rows.map((r) => [
        r.path,
        kb(r.js),
        kb(r.total),
        `${kb(BUDGET.js)} / ${kb(BUDGET.total)}`,
        r.ok ? "ok" : r.foreign.length ? `loads ${r.foreign.join(" ")}` : "OVER",
      ]),
    );
    console.log(`Cold page weight (gzipped bytes on the wire, cache disabled):\n${table}`);
    expect(
      rows.filter((r) => !r.ok).map((r) => r.path),
      `pages over budget:\n${table}`,
    ).toEqual([]);
  });
});

// With script off a page loads the same HTML: the JS-off run would check the same bytes again.
test.describe("light pages", () => {
  test("no page loads a framework script or hydrates: only the small plain scripts", async ({
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    // Every page's faults are gathered, so one run names each page that still ships the framework.
    const faults: string[] = [];
    for (const { path, as } of PAGES) {
      const context = await newContext(browser, baseURL, as, javaScriptEnabled);
      const page = await context.newPage();
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const html = await response!.text();
      const found: string[] = [];
      if (/<script[^>]*type="module"/.test(html)) found.push("a module script");
      if (/rel="modulepreload"/.test(html)) found.push("modulepreload");
      if (html.includes("__remixContext")) found.push("the Remix context in its HTML");
      // Any script a page does load is one of the small plain ones; inline scripts none.
      for (const [, src] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) {
        if (!OWN_SCRIPT.test(src!)) found.push(`script ${src}`);
      }
      if (/<script(?![^>]*\ssrc=)[^>]*>/.test(html)) found.push("an inline script");
      if (javaScriptEnabled && (await page.evaluate(() => "__remixContext" in window)))
        found.push("window.__remixContext");
      if (found.length) faults.push(`${path}: ${found.join(", ")}`);
      await context.close();
    }
    expect(faults).toEqual([]);
  });
});
