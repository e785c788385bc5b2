import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { telegramHash } from "~/domain/auth/telegram-login";
import { startGitHubMock, type MockGitHub } from "../mocks/github-oauth";
import { startWeChatServerMock, type MockWeChatServer } from "../mocks/wechat-server";
import { fakeIp, uniqueName } from "../support/api";
import { startServer, type StartedServer } from "../support/server";

/**
 * Third-party sign-in (decision 018) against loopback providers speaking their real
 * protocols: a GitHub (authorize page, token exchange, /user), a WeChat login server, and
 * Telegram's widget signature computed with a test bot token. This file runs its own server: the
 * GitHub endpoints are fixed at start by GITHUB_OAUTH_BASE_URL / GITHUB_API_BASE_URL.
 */
const CLIENT_ID = "it-client";
const CLIENT_SECRET = "it-secret";
const WECHAT_TOKEN = "wechat-server-token-it";
const BOT_TOKEN = "123456:ABC-test-token";

let server: StartedServer;
let github: MockGitHub;
let wechat: MockWeChatServer;
let root: Browser;

/** A client with its own cookie jar and address, as one browser (or script) would be. */
class Browser {
  cookies = new Map<string, string>();
  newApiUser?: string;
  readonly ip = fakeIp();

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async fetch(
    path: string,
    init: { method?: string; body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { "X-Forwarded-For": this.ip, ...init.headers };
    if (this.cookies.size) headers.Cookie = this.cookieHeader();
    if (this.newApiUser && path.startsWith("/api/")) headers["New-Api-User"] = this.newApiUser;
    let body: string | undefined;
    if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(init.body);
    }
    const url = path.startsWith("http") ? path : server.baseUrl + path;
    const res = await fetch(url, {
      method: init.method ?? "GET",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(20_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (!value || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, location: res.headers.get("location") ?? "" };
  }

  async login(username: string, password: string) {
    const r = await this.fetch("/api/user/login", { method: "POST", body: { username, password } });
    if (!r.json?.success) throw new Error(`login failed: ${r.text}`);
    this.newApiUser = String(r.json.data.id);
    return r.json.data as { id: number; username: string };
  }

  async self() {
    return (await this.fetch("/api/user/self")).json.data as {
      id: number;
      username: string;
      display_name: string;
      github_id: string;
      wechat_id: string;
      telegram_id: string;
    };
  }
}

async function setOption(key: string, value: string) {
  const r = await root.fetch("/api/option/", { method: "PUT", body: { key, value } });
  if (!r.json?.success) throw new Error(`option ${key}: ${r.text}`);
}

async function newUserBrowser(role: "user" | "admin" = "user") {
  const username = uniqueName("o");
  const b = new Browser();
  const reg = await b.fetch("/api/user/register", {
    method: "POST",
    body: { username, password: "password123", password2: "password123" },
  });
  if (!reg.json?.success) throw new Error(`register: ${reg.text}`);
  const me = await b.login(username, "password123");
  if (role === "admin")
    await root.fetch("/api/user/manage", { method: "POST", body: { id: me.id, action: "promote" } });
  return b;
}

/** The whole GitHub round trip over the API, as the reference's front-end does it: state, authorize, callback. */
async function githubViaApi(b: Browser, login: string) {
  const state = await b.fetch("/api/oauth/state");
  expect(state.json.success).toBe(true);
  const callback = new URL(github.authorize(CLIENT_ID, state.json.data, login));
  return b.fetch(
    `/api/oauth/github?code=${callback.searchParams.get("code")}&state=${encodeURIComponent(state.json.data)}`,
  );
}

function telegramQuery(fields: Record<string, string>, token = BOT_TOKEN, extra: Record<string, string> = {}) {
  return new URLSearchParams({ ...fields, hash: telegramHash(fields, token), ...extra }).toString();
}

const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  github = await startGitHubMock();
  wechat = await startWeChatServerMock(WECHAT_TOKEN);
  server = await startServer({
    kind: inject("dbKind"),
    env: { GITHUB_OAUTH_BASE_URL: github.url, GITHUB_API_BASE_URL: github.url, CRITICAL_RATE_LIMIT: "100000" },
  });
  github.registerApp(CLIENT_ID, CLIENT_SECRET, `${server.baseUrl}/oauth/github`);
  root = new Browser();
  await root.login("root", "123456");
  for (const [key, value] of [
    ["GitHubClientId", CLIENT_ID],
    ["GitHubClientSecret", CLIENT_SECRET],
    ["GitHubOAuthEnabled", "true"],
    ["WeChatServerAddress", wechat.url],
    ["WeChatServerToken", WECHAT_TOKEN],
    ["WeChatAccountQRCodeImageURL", "https://example.invalid/qr.png"],
    ["WeChatAuthEnabled", "true"],
    ["TelegramBotToken", BOT_TOKEN],
    ["TelegramBotName", "switchyard_test_bot"],
    ["TelegramOAuthEnabled", "true"],
  ]) {
    await setOption(key!, value!);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await github?.close();
  await wechat?.close();
});

describe("GitHub OAuth", () => {
  it("signs up a new GitHub account as github_<n>, with the same server-side session a password sign-in gets, and finds it again later", async () => {
    const login = uniqueName("gh");
    const account = github.account(login, { name: "Octo Cat", email: `${login}@example.com` });
    const b = new Browser();
    const r = await githubViaApi(b, login);
    expect(r.json).toMatchObject({ success: true, message: "" });
    expect(r.json.data.username).toMatch(/^github_\d+$/);
    expect(Object.keys(r.json.data).sort()).toEqual(["display_name", "group", "id", "role", "status", "username"]);
    expect(b.cookies.get("session")).toBeTruthy();
    b.newApiUser = String(r.json.data.id);
    const me = await b.self();
    expect(me).toMatchObject({ github_id: String(account.id), display_name: "Octo Cat" });

    // The token exchange spoke GitHub's protocol: JSON body with the secret, Accept: application/json.
    const exchange = github.calls.filter((c) => c.path === "/login/oauth/access_token").at(-1)!;
    expect(exchange.headers.accept).toContain("application/json");
    expect(JSON.parse(exchange.body)).toMatchObject({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET });

    const again = await githubViaApi(new Browser(), login);
    expect(again.json.success).toBe(true);
    expect(again.json.data.id).toBe(r.json.data.id);
  });

  it("a state works once, only in the browser it was issued to, and not after that browser signs in", async () => {
    const login = uniqueName("gh");
    const a = new Browser();
    const state = (await a.fetch("/api/oauth/state")).json.data as string;
    expect(a.cookies.get("oauth_pre")).toBeTruthy();
    const code = () => new URL(github.authorize(CLIENT_ID, state, login)).searchParams.get("code")!;

    // Another browser (no pre-login cookie, or its own) cannot use it.
    const stranger = new Browser();
    await stranger.fetch("/api/oauth/state");
    const stolen = await stranger.fetch(`/api/oauth/github?code=${code()}&state=${state}`);
    expect(stolen.status).toBe(403);
    expect(stolen.json).toMatchObject({ success: false, message: "state 无效或已过期，请重新发起登录" });
    expect((await new Browser().fetch(`/api/oauth/github?code=${code()}&state=${state}`)).status).toBe(403);

    // Its own browser uses it once.
    expect((await a.fetch(`/api/oauth/github?code=${code()}&state=${state}`)).json.success).toBe(true);
    const reused = await new Browser().fetch(`/api/oauth/github?code=${code()}&state=${state}`);
    expect(reused.status).toBe(403);
    const replay = new Browser();
    replay.cookies = new Map(a.cookies);
    replay.cookies.delete("session");
    expect((await replay.fetch(`/api/oauth/github?code=${code()}&state=${state}`)).status).toBe(403);

    // A state bound to a session is not usable by a visitor.
    const user = await newUserBrowser();
    const sessionState = (await user.fetch("/api/oauth/state")).json.data as string;
    const visitor = new Browser();
    const r = await visitor.fetch(
      `/api/oauth/github?code=${new URL(github.authorize(CLIENT_ID, sessionState, uniqueName("gh"))).searchParams.get("code")}&state=${sessionState}`,
    );
    expect(r.status).toBe(403);
  });

  it.runIf(inject("dbKind") === "postgres")(
    "a state past its ten minutes is refused (and it is stored only as a hash)",
    async () => {
      const b = new Browser();
      const state = (await b.fetch("/api/oauth/state")).json.data as string;
      const db = new pg.Client({ connectionString: server.databaseUrl });
      await db.connect();
      try {
        expect(
          (
            await db.query(
              "select 1 from oauth_states where state_hash = $1 and expires_at between now() + interval '9 minutes' and now() + interval '11 minutes'",
              [createHash("sha256").update(state).digest("hex")],
            )
          ).rowCount,
        ).toBe(1);
        expect((await db.query("select 1 from oauth_states where state_hash = $1", [state])).rowCount).toBe(0);
        await db.query("update oauth_states set expires_at = now() - interval '1 second' where state_hash = $1", [
          createHash("sha256").update(state).digest("hex"),
        ]);
      } finally {
        await db.end();
      }
      const code = new URL(github.authorize(CLIENT_ID, state, uniqueName("gh"))).searchParams.get("code");
      expect((await b.fetch(`/api/oauth/github?code=${code}&state=${state}`)).status).toBe(403);
    },
  );

  it("a signed-in user binds GitHub (message bind); a GitHub account bound elsewhere is refused; the bound account then signs in", async () => {
    const login = uniqueName("gh");
    const owner = await newUserBrowser();
    const bound = await githubViaApi(owner, login);
    expect(bound.json).toEqual({ success: true, message: "bind" });
    expect((await owner.self()).github_id).toBe(String(github.account(login).id));

    const other = await newUserBrowser();
    const refused = await githubViaApi(other, login);
    expect(refused.json).toEqual({ success: false, message: "该 GitHub 账户已被绑定" });
    expect((await other.self()).github_id).toBe("");

    const signIn = await githubViaApi(new Browser(), login);
    expect(signIn.json.data.id).toBe((await owner.self()).id);
  });

  it("a banned or deleted account cannot sign in with GitHub", async () => {
    const login = uniqueName("gh");
    const first = await githubViaApi(new Browser(), login);
    const id = first.json.data.id as number;
    expect(
      (await root.fetch("/api/user/manage", { method: "POST", body: { id, action: "disable" } })).json.success,
    ).toBe(true);
    const banned = await githubViaApi(new Browser(), login);
    expect(banned.json).toEqual({ success: false, message: "用户已被封禁" });
    expect(
      (await root.fetch("/api/user/manage", { method: "POST", body: { id, action: "delete" } })).json.success,
    ).toBe(true);
    const deleted = await githubViaApi(new Browser(), login);
    expect(deleted.json).toEqual({ success: false, message: "用户已注销" });
  });

  it("with registration off a new GitHub account is refused, a known one still signs in; with GitHub off nothing does", async () => {
    const known = uniqueName("gh");
    expect((await githubViaApi(new Browser(), known)).json.success).toBe(true);
    await setOption("RegisterEnabled", "false");
    try {
      const fresh = await githubViaApi(new Browser(), uniqueName("gh"));
      expect(fresh.json).toEqual({ success: false, message: "管理员关闭了新用户注册" });
      expect((await githubViaApi(new Browser(), known)).json.success).toBe(true);
    } finally {
      await setOption("RegisterEnabled", "true");
    }
    await setOption("GitHubOAuthEnabled", "false");
    try {
      expect((await githubViaApi(new Browser(), known)).json).toEqual({
        success: false,
        message: "管理员未开启通过 GitHub 登录以及注册",
      });
      const start = await new Browser().fetch("/oauth/github/start");
      expect(start.location).toBe("/login");
    } finally {
      await setOption("GitHubOAuthEnabled", "true");
    }
  });

  it("a code GitHub refuses (used twice) fails with GitHub's reason, and no account is made", async () => {
    const b = new Browser();
    const state1 = (await b.fetch("/api/oauth/state")).json.data as string;
    const code = new URL(github.authorize(CLIENT_ID, state1, uniqueName("gh"))).searchParams.get("code")!;
    expect((await b.fetch(`/api/oauth/github?code=${code}&state=${state1}`)).json.success).toBe(true);
    const c = new Browser();
    const state2 = (await c.fetch("/api/oauth/state")).json.data as string;
    const r = await c.fetch(`/api/oauth/github?code=${code}&state=${state2}`);
    expect(r.json.success).toBe(false);
    expect(r.json.message).toContain("bad_verification_code");
    expect(c.cookies.get("session")).toBeUndefined();
  });

  it("console: the button's route goes to GitHub's authorize page with client id and state; the callback signs in and lands on /token; a bad callback shows the failure", async () => {
    const b = new Browser();
    const start = await b.fetch("/oauth/github/start");
    expect(start.status).toBe(302);
    const authorize = new URL(start.location);
    expect(authorize.origin + authorize.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(authorize.searchParams.get("client_id")).toBe(CLIENT_ID);
    const page = await b.fetch(start.location);
    expect(page.text).toContain("Authorize application");
    const approved = await b.fetch(`${github.url}/login/oauth/authorize`, {
      method: "POST",
      form: { client_id: CLIENT_ID, state: authorize.searchParams.get("state")!, login: uniqueName("gh") },
    });
    expect(approved.location.startsWith(`${server.baseUrl}/oauth/github?`)).toBe(true);
    const callback = await b.fetch(approved.location);
    expect(callback.status).toBe(302);
    expect(b.cookies.get("session")).toBeTruthy();
    const hop = await b.fetch(callback.location);
    expect(hop.location).toBe("/token");
    expect((await b.fetch("/token")).status).toBe(200);

    const failed = await new Browser().fetch("/oauth/github?code=abc&state=forged");
    expect(failed.status).toBe(403);
    expect(failed.text).toContain("操作失败，重定向至登录界面中...");
    expect(failed.text).toContain('href="/login"');
    // …and moves on by itself, without JavaScript.
    expect(failed.text).toContain('http-equiv="refresh" content="5;url=/login"');

    // The user declined on GitHub's page: GitHub comes back with error=access_denied and no code.
    const declined = new Browser();
    const declinedState = (await declined.fetch("/api/oauth/state")).json.data as string;
    const r = await declined.fetch(`/api/oauth/github?error=access_denied&state=${declinedState}`);
    expect(r.json).toEqual({ success: false, message: "GitHub 授权失败（access_denied），请重新登录" });
  });

  it("console: a signed-in user binds GitHub from the settings link and returns to /setting with the id shown", async () => {
    const user = await newUserBrowser();
    const setting = await user.fetch("/setting");
    expect(setting.text).toContain('href="/oauth/github/start"');
    const start = await user.fetch("/oauth/github/start");
    const state = new URL(start.location).searchParams.get("state")!;
    const login = uniqueName("gh");
    const callback = await user.fetch(github.authorize(CLIENT_ID, state, login));
    expect(callback.location).toBe("/setting");
    const after = await user.fetch("/setting");
    expect(after.text).toContain(String(github.account(login).id));
    expect(after.text).toContain("GitHub 账户绑定成功！");
  });
});

describe("WeChat", () => {
  it("a code from the WeChat server signs up wechat_<n> and signs in again; the token goes only to that server", async () => {
    const openId = `oid-${uniqueName()}`;
    wechat.codes.set("111111", openId);
    const r = await new Browser().fetch("/api/oauth/wechat?code=111111");
    expect(r.json.success).toBe(true);
    expect(r.json.data.username).toMatch(/^wechat_\d+$/);
    const call = wechat.calls.at(-1)!;
    expect(call).toEqual({ path: "/api/wechat/user?code=111111", authorization: WECHAT_TOKEN });
    wechat.codes.set("111112", openId);
    expect((await new Browser().fetch("/api/oauth/wechat?code=111112")).json.data.id).toBe(r.json.data.id);
    // Used, unknown or missing codes.
    expect((await new Browser().fetch("/api/oauth/wechat?code=111111")).json).toEqual({
      success: false,
      message: "验证码错误或已过期",
    });
    expect((await new Browser().fetch("/api/oauth/wechat")).json).toEqual({ success: false, message: "无效的参数" });
  });

  it("binding: the API and the settings form bind; an openid bound elsewhere is refused", async () => {
    const user = await newUserBrowser();
    const openId = `oid-${uniqueName()}`;
    wechat.codes.set("222222", openId);
    expect((await user.fetch("/api/oauth/wechat/bind?code=222222")).json).toEqual({ success: true, message: "" });
    expect((await user.self()).wechat_id).toBe(openId);

    const other = await newUserBrowser();
    wechat.codes.set("222223", openId);
    expect((await other.fetch("/api/oauth/wechat/bind?code=222223")).json).toEqual({
      success: false,
      message: "该微信账号已被绑定",
    });

    const third = await newUserBrowser();
    const page = await third.fetch("/setting");
    expect(page.text).toContain("https://example.invalid/qr.png");
    wechat.codes.set("333333", `oid-${uniqueName()}`);
    const posted = await third.fetch("/setting", { method: "POST", form: { intent: "bind-wechat", code: "333333" } });
    expect(posted.location).toBe("/setting");
    expect((await third.fetch("/setting")).text).toContain("微信账户绑定成功！");
    const wrong = await third.fetch("/setting", { method: "POST", form: { intent: "bind-wechat", code: "999999" } });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("验证码错误或已过期");
  });

  it("SSRF: a link-local or metadata WeChatServerAddress is refused when saved, and the token is never sent there", async () => {
    for (const address of [
      "http://169.254.169.254",
      "http://[::ffff:169.254.169.254]/",
      "http://metadata.google.internal",
    ]) {
      const r = await root.fetch("/api/option/", {
        method: "PUT",
        body: { key: "WeChatServerAddress", value: address },
      });
      expect(r.json.success, address).toBe(false);
      expect(r.json.message).toContain("链路本地");
    }
    const options = (await root.fetch("/api/option/")).json.data as { key: string; value: string }[];
    expect(options.find((o) => o.key === "WeChatServerAddress")?.value).toBe(wechat.url);
    expect(options.some((o) => o.key === "WeChatServerToken")).toBe(false);
  });
});

describe("Telegram", () => {
  const fieldsFor = (id: string, authDate = now()) => ({
    id,
    first_name: "Ada",
    last_name: "L",
    username: "ada",
    photo_url: "https://t.me/i/ada.jpg",
    auth_date: String(authDate),
  });

  it("a correctly signed widget login signs up tg_<n> (lang ignored) and signs in again", async () => {
    const id = String(Date.now());
    const r = await new Browser().fetch(
      `/api/oauth/telegram/login?${telegramQuery(fieldsFor(id), BOT_TOKEN, { lang: "en" })}`,
    );
    expect(r.json.success).toBe(true);
    expect(r.json.data).toMatchObject({ display_name: "Ada L" });
    expect(r.json.data.username).toMatch(/^tg_\d+$/);
    const again = await new Browser().fetch(`/api/oauth/telegram/login?${telegramQuery(fieldsFor(id))}`);
    expect(again.json.data.id).toBe(r.json.data.id);
  });

  it("refuses a forged hash, a stale or future auth_date, a missing field and a hash made with another token", async () => {
    const id = String(Date.now() + 1);
    const good = fieldsFor(id);
    const forged = new URLSearchParams({ ...good, hash: telegramHash({ ...good, id: "1" }, BOT_TOKEN) });
    expect((await new Browser().fetch(`/api/oauth/telegram/login?${forged}`)).json).toEqual({
      success: false,
      message: "无效的请求",
    });
    expect(
      (await new Browser().fetch(`/api/oauth/telegram/login?${telegramQuery(fieldsFor(id, now() - 2 * 86400))}`)).json
        .message,
    ).toContain("已过期");
    expect(
      (await new Browser().fetch(`/api/oauth/telegram/login?${telegramQuery(fieldsFor(id, now() + 3600))}`)).json
        .success,
    ).toBe(false);
    const { id: _omit, ...noId } = good;
    expect((await new Browser().fetch(`/api/oauth/telegram/login?${telegramQuery(noId)}`)).json).toEqual({
      success: false,
      message: "无效的请求",
    });
    expect(
      (await new Browser().fetch(`/api/oauth/telegram/login?${telegramQuery(good, "999:other-bot")}`)).json.success,
    ).toBe(false);
    // A field dropped after signing breaks the signature.
    const signed = new URLSearchParams(telegramQuery(good));
    signed.delete("photo_url");
    expect((await new Browser().fetch(`/api/oauth/telegram/login?${signed}`)).json.success).toBe(false);
  });

  it("binds for a signed-in user (API and settings form); an id bound elsewhere is refused", async () => {
    const id = String(Date.now() + 2);
    const user = await newUserBrowser();
    expect((await user.fetch(`/api/oauth/telegram/bind?${telegramQuery(fieldsFor(id))}`)).json).toEqual({
      success: true,
      message: "",
    });
    expect((await user.self()).telegram_id).toBe(id);
    const other = await newUserBrowser();
    expect((await other.fetch(`/api/oauth/telegram/bind?${telegramQuery(fieldsFor(id))}`)).json).toEqual({
      success: false,
      message: "该 Telegram 账户已被绑定",
    });
    const form = { intent: "bind-telegram", ...fieldsFor(String(Date.now() + 3)) };
    const posted = await other.fetch("/setting", {
      method: "POST",
      form: { ...form, hash: telegramHash(fieldsFor(form.id, Number(form.auth_date)), BOT_TOKEN) },
    });
    expect(posted.location).toBe("/setting");
    expect((await other.self()).telegram_id).toBe(form.id);
  });
});

describe("role matrix: /api/oauth/* × visitor / user / admin / root", () => {
  // Fresh browsers each time: a sign-in through a login route replaces the caller's session.
  const callers = async () => {
    const rootBrowser = new Browser();
    await rootBrowser.login("root", "123456");
    return {
      visitor: new Browser(),
      user: await newUserBrowser(),
      admin: await newUserBrowser("admin"),
      root: rootBrowser,
    };
  };

  it("GET /api/oauth/state: everyone gets a state", async () => {
    for (const [role, b] of Object.entries(await callers())) {
      const r = await b.fetch("/api/oauth/state");
      expect(r.json.success, role).toBe(true);
      expect(r.json.data, role).toMatch(/^[A-Za-z0-9_-]{32}$/);
    }
  });

  it("GET /api/oauth/github: a visitor signs in; user, admin and root bind", async () => {
    for (const [role, b] of Object.entries(await callers())) {
      const r = await githubViaApi(b, uniqueName("gh"));
      expect(r.json.success, role).toBe(true);
      expect(r.json.message, role).toBe(role === "visitor" ? "" : "bind");
    }
  });

  it("GET /api/oauth/wechat and /telegram/login: open to everyone; the bind routes: refused to a visitor, allowed to user, admin and root", async () => {
    let n = 0;
    for (const [role, b] of Object.entries(await callers())) {
      const code = `7${String(++n).padStart(5, "0")}`;
      wechat.codes.set(code, `oid-${uniqueName()}`);
      expect((await b.fetch(`/api/oauth/wechat?code=${code}`)).json.success, role).toBe(true);
      expect(
        (
          await b.fetch(
            `/api/oauth/telegram/login?${telegramQuery({ id: String(Date.now() + 100 + n), auth_date: String(now()) })}`,
          )
        ).json.success,
        role,
      ).toBe(true);
    }
    for (const [role, b] of Object.entries(await callers())) {
      const code = `8${String(++n).padStart(5, "0")}`;
      wechat.codes.set(code, `oid-${uniqueName()}`);
      const wechatBind = await b.fetch(`/api/oauth/wechat/bind?code=${code}`);
      const telegramBind = await b.fetch(
        `/api/oauth/telegram/bind?${telegramQuery({ id: String(Date.now() + 200 + n), auth_date: String(now()) })}`,
      );
      if (role === "visitor") {
        expect(wechatBind.status).toBe(401);
        expect(telegramBind.status).toBe(401);
        expect(wechatBind.json.success).toBe(false);
      } else {
        expect(wechatBind.json, role).toEqual({ success: true, message: "" });
        expect(telegramBind.json, role).toEqual({ success: true, message: "" });
      }
    }
  });
});

describe("status and the login page show only the enabled methods", () => {
  it("status carries every sign-in field; the login page shows GitHub, the WeChat QR code and form, and the Telegram slot; switched off they vanish", async () => {
    const status = (await new Browser().fetch("/api/status")).json.data;
    expect(status).toMatchObject({
      github_oauth: true,
      github_client_id: CLIENT_ID,
      wechat_login: true,
      wechat_qrcode: "https://example.invalid/qr.png",
      telegram_oauth: true,
      telegram_bot_name: "switchyard_test_bot",
    });
    const on = (await new Browser().fetch("/login")).text;
    expect(on).toContain('href="/oauth/github/start"');
    expect(on).toContain('action="/oauth/wechat"');
    expect(on).toContain("https://example.invalid/qr.png");
    expect(on).toContain('data-testid="telegram-login"');
    expect(on).toContain('name="password"');
    for (const key of ["GitHubOAuthEnabled", "WeChatAuthEnabled", "TelegramOAuthEnabled", "PasswordLoginEnabled"])
      await setOption(key, "false");
    try {
      const off = (await new Browser().fetch("/login")).text;
      expect(off).not.toContain("/oauth/github/start");
      expect(off).not.toContain('action="/oauth/wechat"');
      expect(off).not.toContain("telegram-login");
      expect(off).not.toContain('name="password"');
    } finally {
      for (const key of ["GitHubOAuthEnabled", "WeChatAuthEnabled", "TelegramOAuthEnabled", "PasswordLoginEnabled"])
        await setOption(key, "true");
    }
  });

  it("console WeChat form signs in and lands on /token; a wrong code goes back to /login", async () => {
    wechat.codes.set("444444", `oid-${uniqueName()}`);
    const b = new Browser();
    const r = await b.fetch("/oauth/wechat", { method: "POST", form: { code: "444444" } });
    expect(r.location).toContain("/login?signedIn=1");
    expect((await b.fetch(r.location)).location).toBe("/token");
    const c = new Browser();
    const wrong = await c.fetch("/oauth/wechat", { method: "POST", form: { code: "000000" } });
    expect(wrong.location).toBe("/login");
    expect((await c.fetch("/login")).text).toContain("验证码错误或已过期");
  });
});
