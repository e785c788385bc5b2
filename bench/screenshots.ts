/**
 * Full-page screenshots of every console page, for a person to look at before a release: the
 * built app on a fresh PGlite database, root signed in, a little content seeded (tokens, channels,
 * logs, a redemption code, a user, a drawing and a music task), each page at 1280 and 390 px wide,
 * light and dark. Files are named <page>-<width>-<theme>.png.
 *
 * Usage: npm run build && tsx bench/screenshots.ts [outDir=/tmp/shots] [path filter…]
 * e.g. `tsx bench/screenshots.ts /tmp/shots /log /detail` shoots only those two pages.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type APIRequestContext, type BrowserContext } from "@playwright/test";
import { startMjProxy } from "../tests/mocks/mj-proxy";
import { startOpenAiMock } from "../tests/mocks/openai-upstream";
import { startSunoApi } from "../tests/mocks/suno-api";
import { startServer } from "../tests/support/server";

const PAGES = [
  "/",
  "/about",
  "/login",
  "/register",
  "/token",
  "/token/add",
  "/channel",
  "/channel/add",
  "/user",
  "/user/add",
  "/redemption",
  "/redemption/add",
  "/log",
  "/detail",
  "/topup",
  "/pricing",
  "/setting",
  "/setting?tab=operation",
  "/setting?tab=system",
  "/setting?tab=other",
  "/midjourney",
  "/task",
  "/playground",
];
/** Pages a visitor sees signed out (signed in, they redirect). */
const SIGNED_OUT = new Set(["/login", "/register"]);
const WIDTHS = [1280, 390];
const THEMES = ["light", "dark"] as const;

const [outDir = "/tmp/shots", ...filters] = process.argv.slice(2);
const pages = filters.length > 0 ? PAGES.filter((path) => filters.includes(path)) : PAGES;
mkdirSync(outDir, { recursive: true });

/** "/setting?tab=operation" → "setting-operation"; "/" → "home". */
function fileStem(path: string): string {
  return path === "/"
    ? "home"
    : path
        .slice(1)
        .replace(/\?tab=/, "-")
        .replace(/[/?=&]+/g, "-");
}

const openai = await startOpenAiMock();
const mj = await startMjProxy({ secret: "shots-mj-secret", stepMs: 50 });
const suno = await startSunoApi({ key: "shots-suno-key", stepMs: 50 });
const server = await startServer({
  kind: "pglite",
  env: { TZ: "UTC", TASK_POLL_INTERVAL_MS: "300", CRITICAL_RATE_LIMIT: "100000" },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

async function json<T>(response: Promise<{ json: () => Promise<unknown> }>): Promise<T> {
  return (await (await response).json()) as T;
}

async function login(request: APIRequestContext, username: string, password: string): Promise<number> {
  return (await json<{ data: { id: number } }>(request.post("/api/user/login", { data: { username, password } }))).data
    .id;
}

/** A user's token key (the first of theirs named `name`). */
async function keyOf(request: APIRequestContext, userId: number, name: string): Promise<string> {
  const headers = { "New-Api-User": String(userId) };
  const tokens = (await json<{ data: { id: number; name: string }[] }>(request.get("/api/token/", { headers }))).data;
  const id = tokens.find((t) => t.name === name)!.id;
  return (await json<{ data: { key: string } }>(request.get(`/api/token/${id}/key`, { headers }))).data.key;
}

async function seed(request: APIRequestContext) {
  const root = { "New-Api-User": "1" };
  await login(request, "root", "123456");
  const setOption = (key: string, value: string) =>
    request.put("/api/option/", { headers: root, data: { key, value } });
  await setOption("ServerAddress", server.baseUrl);
  await setOption("QuotaForNewUser", "50000000");
  await setOption("ModelPrice", JSON.stringify({ mj_imagine: 0.1, suno_music: 0.1, suno_lyrics: 0.01 }));
  await setOption(
    "ModelRatio",
    JSON.stringify({
      "gpt-4o-mini": 0.075,
      "gpt-4o": 1.25,
      "claude-3-5-sonnet-20241022": 1.5,
      "text-embedding-3-small": 0.01,
    }),
  );
  await setOption("Notice", "维护通知：本周六 02:00–04:00 升级数据库，期间请求可能短暂失败。");
  const channels = [
    {
      type: 1,
      name: "OpenAI 主渠道",
      key: "sk-shots",
      base_url: openai.url,
      models: "gpt-4o-mini,gpt-4o,text-embedding-3-small",
      group: "default",
    },
    {
      type: 1,
      name: "备用渠道-claude-compatible-long-name",
      key: "sk-shots",
      base_url: openai.url,
      models: "claude-3-5-sonnet-20241022",
      group: "default,vip",
    },
    { type: 2, name: "Midjourney", key: "shots-mj-secret", base_url: mj.url, models: "mj_imagine", group: "default" },
    {
      type: 36,
      name: "Suno",
      key: "shots-suno-key",
      base_url: suno.url,
      models: "suno_music,suno_lyrics",
      group: "default",
    },
  ];
  for (const channel of channels) await request.post("/api/channel/", { headers: root, data: channel });
  await request.post("/api/redemption/", { headers: root, data: { name: "春节活动", quota: 500000, count: 3 } });
  await request.post("/api/token/", {
    headers: root,
    data: { name: "root 的密钥", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
  });

  // A user who calls the API: their calls fill the logs, the dashboard and the task lists.
  await request.post("/api/user/register", {
    data: { username: "alice", password: "password123", password2: "password123" },
  });
  await request.post("/api/user/register", {
    data: { username: "bob_longname", password: "password123", password2: "password123" },
  });
  const alice = await login(request, "alice", "password123");
  const asAlice = { "New-Api-User": String(alice) };
  await request.post("/api/token/", {
    headers: asAlice,
    data: { name: "默认", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
  });
  await request.post("/api/token/", {
    headers: asAlice,
    data: {
      name: "有额度限制的测试密钥",
      remain_quota: 500000,
      unlimited_quota: false,
      expired_time: Math.floor(Date.now() / 1000) + 30 * 86400,
    },
  });
  const key = await keyOf(request, alice, "默认");
  const auth = { Authorization: `Bearer ${key}` };
  for (const model of ["gpt-4o-mini", "gpt-4o", "claude-3-5-sonnet-20241022", "gpt-4o-mini"]) {
    await request.post("/v1/chat/completions", {
      headers: auth,
      data: { model, messages: [{ role: "user", content: "你好" }] },
    });
  }
  await request.post("/v1/chat/completions", {
    headers: auth,
    data: { model: "gpt-4o", stream: true, messages: [{ role: "user", content: "hi" }] },
  });
  await request.post("/v1/embeddings", { headers: auth, data: { model: "text-embedding-3-small", input: "hello" } });
  await request.post("/mj/submit/imagine", {
    headers: { "mj-api-secret": key },
    data: { prompt: "a red fox in snow, watercolor" },
  });
  await request.post("/mj/submit/imagine", {
    headers: { "mj-api-secret": key },
    data: { prompt: "this one will fail" },
  });
  await request.post("/suno/submit/music", { headers: auth, data: { gpt_description_prompt: "calm piano" } });
  await request.post("/suno/submit/lyrics", { headers: auth, data: { prompt: "please fail" } });
  // The tasks reach their final state in a few poll rounds.
  await new Promise((resolve) => setTimeout(resolve, 4000));
  await login(request, "root", "123456");
  // Root calls too, so the admin's own dashboard has bars.
  const rootKey = await keyOf(request, 1, "root 的密钥");
  for (const model of ["gpt-4o-mini", "gpt-4o"]) {
    await request.post("/v1/chat/completions", {
      headers: { Authorization: `Bearer ${rootKey}` },
      data: { model, messages: [{ role: "user", content: "hi" }] },
    });
  }
}

/**
 * What a person would notice without looking closely, found in the page: a page wider than the
 * screen, a wide screen's table that still scrolls sideways, and short unspaced labels (渠道, 保存, 首页) broken over several lines by a squeezed box.
 * Printed under the screenshot's name; the screenshots are still to be looked at.
 */
function findLayoutIssues(): string[] {
  const issues: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth)
    issues.push(`the page scrolls sideways: ${root.scrollWidth} px wide on a ${root.clientWidth} px screen`);
  for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
    // What a closed <details> holds is not on the page.
    if (!element.checkVisibility()) continue;
    // A box that scrolls sideways is expected on a phone; on a wide screen its far columns go unseen.
    if (
      root.clientWidth > 600 &&
      element.scrollWidth > element.clientWidth + 1 &&
      getComputedStyle(element).overflowX === "auto"
    ) {
      issues.push(`a box scrolls sideways: ${element.scrollWidth} px of content in ${element.clientWidth} px`);
    }
    if (element.children.length > 0 || element.closest("select, textarea, script, style, template, pre")) continue;
    const text = (element.textContent ?? "").trim();
    if (text === "" || text.length > 12 || /\s/.test(text)) continue;
    // One rectangle per line the text occupies (a table cell's own box is as tall as its row).
    const range = document.createRange();
    range.selectNodeContents(element);
    const lines = new Set(
      [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
    );
    if (lines.size > 1)
      issues.push(
        `"${text}" breaks over ${lines.size} lines (${Math.round(element.getBoundingClientRect().width)} px wide)`,
      );
  }
  return issues;
}

/** The theme cookie as app/utils/theme.server.ts writes it (an unsigned Remix cookie: base64 JSON). */
async function setTheme(context: BrowserContext, theme: (typeof THEMES)[number]) {
  const url = new URL(server.baseUrl);
  await context.addCookies([
    { name: "theme", value: Buffer.from(JSON.stringify(theme)).toString("base64"), domain: url.hostname, path: "/" },
  ]);
}

try {
  const signedIn = await browser.newContext({ baseURL: server.baseUrl });
  await seed(signedIn.request);
  const signedOut = await browser.newContext({ baseURL: server.baseUrl });
  for (const theme of THEMES) {
    await setTheme(signedIn, theme);
    await setTheme(signedOut, theme);
    for (const width of WIDTHS) {
      for (const path of pages) {
        const page = await (SIGNED_OUT.has(path) ? signedOut : signedIn).newPage();
        await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
        const response = await page.goto(path, { waitUntil: "networkidle" });
        // The default-password notice opens over every page once; close it, it is not the page.
        await page
          .locator("[data-testid=default-password-dialog] button")
          .click({ timeout: 500 })
          .catch(() => undefined);
        const file = join(outDir, `${fileStem(path)}-${width}-${theme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(`${response?.status() ?? "?"} ${file}`);
        for (const issue of await page.evaluate(findLayoutIssues)) console.log(`  ! ${issue}`);
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await openai.close();
  await mj.close();
  await suno.close();
}
