import { gzipSync } from "node:zlib";
import { type Locator, type Page } from "@playwright/test";
import { expect, said, test } from "./fixtures";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { apiLogin, mergeOption, setOption, uniqueName } from "./helpers";

let upstream: MockUpstream;
test.beforeAll(async () => {
  upstream = await startOpenAiMock();
});
test.afterAll(async () => upstream.close());

const PHONE = { width: 390, height: 844 };

/** The element's box lies wholly inside the viewport (not merely "partly visible"). */
async function expectFullyInViewport(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
}

/** The element is what the browser hits at its own centre: nothing (a sticky cell, a clipping box) lies over it. */
async function expectOnTop(locator: Locator) {
  expect(
    await locator.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
      return hit !== null && (hit === element || element.contains(hit));
    }),
  ).toBe(true);
}

/** A fresh user signed in (the page shares the request's cookie) with one token, on /token. */
async function userWithToken(page: Page, tokenName: string) {
  const username = uniqueName("po");
  await page.request.post("/api/user/register", {
    data: { username, password: "password123", password2: "password123" },
  });
  const userId = await apiLogin(page.request, username, "password123");
  const created = await page.request.post("/api/token/", {
    headers: { "New-Api-User": String(userId) },
    data: { name: tokenName, remain_quota: 0, unlimited_quota: true, expired_time: -1 },
  });
  expect(((await created.json()) as { success: boolean }).success).toBe(true);
  await page.goto("/token");
}

test.describe("narrow screens @nojs", () => {
  test("at 640 and 390 px the token row's actions stay reachable, whichever way the table box is scrolled", async ({
    page,
  }) => {
    // Between 600 px and the table's width the box scrolls sideways under a pinned 操作 column;
    // under 600 px each row is a card that fits the screen (narrow-tables.spec.ts).
    for (const [viewport, scrolls] of [
      [{ width: 640, height: 844 }, true],
      [PHONE, false],
    ] as const) {
      await page.setViewportSize(viewport);
      await userWithToken(page, "phone");
      const row = page.getByTestId("token-row-phone");
      const box = page.getByTestId("token-table").locator("xpath=..");
      expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(scrolls);
      for (const scrollLeft of [0, 10_000]) {
        await box.evaluate((el, left) => {
          el.scrollLeft = left;
        }, scrollLeft);
        for (const action of [row.getByRole("link", { name: "编辑" }), row.getByTestId("delete-phone")]) {
          await expectFullyInViewport(page, action);
          await expectOnTop(action);
        }
      }
    }
  });

  test("the delete confirmation is not clipped by the table: 确定 is whole, on screen and deletes", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await userWithToken(page, "gone");
    await page.getByTestId("delete-gone").click();
    const confirm = page.getByTestId("confirm-delete-gone").getByRole("button", { name: "确定" });
    await expect(confirm).toBeVisible();
    await expectFullyInViewport(page, confirm);
    await expectOnTop(confirm);
    await confirm.click();
    await expect(page.getByTestId("token-row-gone")).toHaveCount(0);
    await expect(page).toHaveURL(/\/token$/);
  });

  test("the admin's user card in the log keeps each label on one line", async ({ page }) => {
    const request = page.request;
    await apiLogin(request, "root", "123456");
    // A long model name widens the table past its minimum, so the browser shrinks the other
    // columns to their narrowest: that is where the card's labels used to break per character.
    const model = `${uniqueName("pm")}-${"long-model-name-".repeat(5)}`;
    const channel = await request.post("/api/channel/", {
      headers: { "New-Api-User": "1" },
      data: { type: 1, name: uniqueName("pch"), key: "sk-x", base_url: upstream.url, models: model, group: "default" },
    });
    expect(((await channel.json()) as { success: boolean }).success).toBe(true);
    const options = (await (await request.get("/api/option/", { headers: { "New-Api-User": "1" } })).json()) as {
      data: { key: string; value: string }[];
    };
    const prices = options.data.find((o) => o.key === "ModelPrice")?.value ?? "{}";
    await setOption(request, "ModelPrice", JSON.stringify({ ...(JSON.parse(prices) as object), [model]: 0.01 }));
    const username = uniqueName("pc");
    await request.post("/api/user/register", { data: { username, password: "password123", password2: "password123" } });
    const found = await request.get(`/api/user/search?keyword=${username}`, { headers: { "New-Api-User": "1" } });
    const userId = ((await found.json()) as { data: { id: number; username: string }[] }).data.find(
      (u) => u.username === username,
    )!.id;
    await request.put("/api/user/", { headers: { "New-Api-User": "1" }, data: { id: userId, quota: 5_000_000 } });
    await apiLogin(request, username, "password123");
    const asUser = { "New-Api-User": String(userId) };
    await request.post("/api/token/", {
      headers: asUser,
      data: { name: "card", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
    });
    const tokenId = (
      (await (await request.get("/api/token/", { headers: asUser })).json()) as { data: { id: number }[] }
    ).data[0]!.id;
    const key = (
      (await (await request.get(`/api/token/${tokenId}/key`, { headers: asUser })).json()) as { data: { key: string } }
    ).data.key;
    const reply = await request.post("/v1/chat/completions", {
      headers: { Authorization: `Bearer ${key}` },
      data: { model, messages: [{ role: "user", content: "hi" }] },
    });
    await apiLogin(request, "root", "123456");
    await setOption(request, "ModelPrice", prices);
    expect(reply.status()).toBe(200);
    for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`/log?username=${username}&type=2`);
      const summary = page.getByTestId("log-row").first().locator("summary", { hasText: username });
      // The disclosure triangle and the name stay on one line (the name used to drop below the triangle).
      const summaryLine = await summary.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      expect(await height(summary)).toBeLessThan(summaryLine * 1.5);
      await summary.click();
      const card = page.getByTestId("user-card").first();
      await expect(card).toBeVisible();
      for (const label of ["用户名", "剩余额度", "已用额度", "请求次数"]) {
        const term = card.locator("dt", { hasText: label });
        const lineHeight = await term.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
        const box = (await term.boundingBox())!;
        // One line tall: squeezed, a label breaks one character per line (three or four lines).
        expect(box.height).toBeLessThan(lineHeight * 1.5);
      }
    }
  });
});

test.describe("address bar", () => {
  test("a form action on an index route leaves no ?index in the address bar", async ({ page }) => {
    await userWithToken(page, "addr");
    // 查看 answers with data (the key), not a redirect: the page stays where the form posted.
    await page.getByTestId("token-row-addr").getByRole("button", { name: "查看" }).click();
    await expect(page.getByTestId("token-row-addr").getByTestId("token-key")).toHaveText(/^sk-[A-Za-z0-9]{48}$/);
    await expect(page).toHaveURL(/\/token$/);
    // 禁用 redirects back to the list: to the plain path as well.
    await page.getByTestId("token-row-addr").getByRole("button", { name: "禁用" }).click();
    await expect(page.getByTestId("token-row-addr")).toContainText("已禁用");
    await expect(page).toHaveURL(/\/token$/);
    // Filters survive the redirect; only the marker goes.
    await page.goto("/token?keyword=addr");
    await page.getByTestId("token-row-addr").getByRole("button", { name: "启用" }).click();
    await expect(page.getByTestId("token-row-addr")).toContainText("已启用");
    await expect(page).toHaveURL(/\/token\?keyword=addr$/);
  });

  test("without JavaScript a redirecting row action lands on the plain path too @nojs", async ({ page }) => {
    await userWithToken(page, "plain");
    await page.getByTestId("token-row-plain").getByRole("button", { name: "禁用" }).click();
    await expect(page.getByTestId("token-row-plain")).toContainText("已禁用");
    await expect(page).toHaveURL(/\/token$/);
  });
});

/** Root signed in (the page shares the request's cookie); a channel named `name` to the mock upstream, serving `model`. */
async function rootWithChannel(page: Page, name: string, model = uniqueName("pm")) {
  await apiLogin(page.request, "root", "123456");
  const created = await page.request.post("/api/channel/", {
    headers: { "New-Api-User": "1" },
    data: { type: 1, name, key: "sk-x", base_url: upstream.url, models: model, group: "default" },
  });
  expect(((await created.json()) as { success: boolean }).success).toBe(true);
}

async function height(locator: Locator): Promise<number> {
  return (await locator.boundingBox())!.height;
}

test.describe("layout at 1280 and 390 px", () => {
  test("a button's label never wraps: a channel row's 保存 is as tall as the one-line 查询", async ({ page }) => {
    // A long name and two groups widen the table, so the browser squeezes the other columns.
    const name = `${uniqueName("pb")}-claude-compatible-long-name`;
    await apiLogin(page.request, "root", "123456");
    const created = await page.request.post("/api/channel/", {
      headers: { "New-Api-User": "1" },
      data: { type: 1, name, key: "sk-x", base_url: upstream.url, models: uniqueName("pm"), group: "default,vip" },
    });
    expect(((await created.json()) as { success: boolean }).success).toBe(true);
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`/channel?keyword=${name}`);
      const save = page.getByTestId(`channel-row-${name}`).getByRole("button", { name: "保存" });
      // Squeezed by the table, 保存 used to stack as 保 / 存: twice the height.
      expect(await height(save)).toBe(await height(page.getByRole("button", { name: "查询" })));
    }
  });

  test("the 操作 column's edge line shows only while the table scrolls sideways", async ({ page }) => {
    await userWithToken(page, "edge");
    const header = page.getByTestId("token-table").locator("th.actions-col");
    const edge = () => header.evaluate((el) => getComputedStyle(el).boxShadow);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The whole table fits: the pinned column is a plain column, no line down the table.
    await expect.poll(edge).toBe("none");
    // Narrower than the table (wider than a phone, where rows are cards): it scrolls, the line shows.
    await page.setViewportSize({ width: 640, height: 800 });
    await expect.poll(edge).not.toBe("none");
  });

  test("signed out on a phone, the top bar keeps 首页, 关于, 登录 and 注册 on one line and on screen", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/login");
    const bar = page.locator("header");
    const home = bar.getByRole("link", { name: "首页" });
    const lineHeight = await home.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    for (const item of [
      home,
      bar.getByRole("link", { name: "关于" }),
      bar.getByRole("link", { name: "登录" }),
      bar.getByRole("link", { name: "注册" }),
    ]) {
      await expectFullyInViewport(page, item);
      // Squeezed, each of these two-character labels broke one character per line.
      const box = (await item.boundingBox())!;
      const padding = await item.evaluate(
        (el) => parseFloat(getComputedStyle(el).paddingTop) + parseFloat(getComputedStyle(el).paddingBottom) + 2,
      );
      expect(box.height).toBeLessThan(lineHeight * 1.5 + padding);
    }
  });

  test("a filter row's labels line up: the 时间粒度 drop-down is as tall as the date fields beside it", async ({
    page,
  }) => {
    await apiLogin(page.request, "root", "123456");
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/detail");
    const form = page.getByRole("search");
    expect(await height(form.getByLabel("时间粒度"))).toBe(await height(form.getByLabel("起始时间")));
    const tops = await form.locator("label").evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect().top));
    expect(new Set(tops).size).toBe(1);
  });

  test("the dashboard's axis labels are page-sized text at both widths", async ({ page }) => {
    const model = uniqueName("pa");
    await rootWithChannel(page, uniqueName("pach"), model);
    const request = page.request;
    await mergeOption(request, "ModelPrice", { [model]: 0.01 });
    const key = (
      (await (
        await request.get(`/api/token/${await rootTokenId(page)}/key`, { headers: { "New-Api-User": "1" } })
      ).json()) as { data: { key: string } }
    ).data.key;
    expect(
      (
        await request.post("/v1/chat/completions", {
          headers: { Authorization: `Bearer ${key}` },
          data: { model, messages: [{ role: "user", content: "hi" }] },
        })
      ).status(),
    ).toBe(200);
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto("/detail");
      const chart = page.getByRole("img", { name: said("额度消耗") });
      const label = chart.getByText("$0.00", { exact: true });
      await expect(label).toBeVisible();
      // Drawn inside a scaled-down SVG they were 5–7 px tall on screen: unreadable.
      expect(await height(label)).toBeGreaterThanOrEqual(14);
      const chartBox = (await chart.boundingBox())!;
      const labelBox = (await label.boundingBox())!;
      expect(labelBox.x).toBeGreaterThanOrEqual(chartBox.x);
    }
  });
});

/** Root's own token (made once, unlimited), for calls that land on root's dashboard. */
async function rootTokenId(page: Page): Promise<number> {
  const root = { "New-Api-User": "1" };
  const find = async () =>
    (
      (await (await page.request.get("/api/token/?p=0&size=100", { headers: root })).json()) as {
        data: { id: number; name: string }[];
      }
    ).data.find((t) => t.name === "polish-axis")?.id;
  const existing = await find();
  if (existing !== undefined) return existing;
  await page.request.post("/api/token/", {
    headers: root,
    data: { name: "polish-axis", remain_quota: 0, unlimited_quota: true, expired_time: -1 },
  });
  return (await find())!;
}

test.describe("plain page loads", () => {
  test("HTML comes compressed, the stylesheet is cached a year and under 10 KB gzipped, and no web font is loaded", async ({
    request,
  }) => {
    const res = await request.get("/login", { headers: { "Accept-Encoding": "gzip, deflate, br" } });
    expect(res.headers()["content-encoding"]).toMatch(/^(gzip|br)$/);
    const html = await res.text();
    const sheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
    expect(sheets).toHaveLength(1);
    const css = await request.get(sheets[0]!);
    // A hashed name never changes content: the browser keeps it without asking again.
    expect(css.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    const body = await css.body();
    expect(gzipSync(body).length).toBeLessThan(10 * 1024);
    // System fonts only: nothing for the first paint to wait for.
    expect(body.toString()).not.toContain("@font-face");
    expect(html).not.toMatch(/\.woff2?\b|fonts\.googleapis/);
  });
});
