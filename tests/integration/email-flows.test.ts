import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { codeIn, resetLinkIn, SMTP_PASSWORD, SMTP_USER, startTestSmtp, type TestSmtp } from "../mocks/smtp-server";
import { startTurnstileMock, type TurnstileMock } from "../mocks/turnstile-siteverify";
import { fakeIp, uniqueName } from "../support/api";
import { startTestRedis } from "../support/redis-server";
import { freePort, startServer, type StartedServer } from "../support/server";
import { call, signIn, type Node } from "../support/standalone";

/**
 * Sign-in flows by email and Turnstile, on a server of this file's own (its SMTP and
 * Turnstile settings would disturb the shared one): a real SMTP server on loopback receives the
 * mail and the test reads it as a mailbox would.
 */
const kind = inject("dbKind");
let server: StartedServer;
let smtp: TestSmtp;
let turnstile: TurnstileMock;
let root: Node;
let base: string;

const SENT = "验证码发送成功，请检查你的邮箱！";
const WRONG_CODE = "验证码错误或已过期";
const TURNSTILE_WAIT = "请稍后几秒重试，Turnstile 正在检查用户环境！";

async function setOption(key: string, value: string) {
  const res = await call(base, "/api/option/", { method: "PUT", headers: root.auth, body: { key, value } });
  expect(res.json, `${key}=${value}`).toMatchObject({ success: true });
}

const mailbox = (prefix = "m") => `${uniqueName(prefix)}@example.com`;
const askCode = (email: string, extra = "") =>
  call(base, `/api/verification?email=${encodeURIComponent(email)}${extra}`);

async function codeFor(email: string): Promise<string> {
  expect((await askCode(email)).json).toMatchObject({ success: true, message: SENT });
  return codeIn(await smtp.nextMailTo(email));
}

function register(body: Record<string, unknown>, query = "") {
  return call(base, `/api/user/register${query}`, { method: "POST", body });
}

async function signsIn(username: string, password: string): Promise<boolean> {
  return Boolean((await call(base, "/api/user/login", { method: "POST", body: { username, password } })).json?.success);
}

/** A registered user whose account carries this address (registration with its code). */
async function userWithEmail(email = mailbox("r")) {
  const username = uniqueName("r");
  const password = "password123";
  const code = await codeFor(email);
  expect(
    (await register({ username, password, password2: password, email, verification_code: code })).json,
  ).toMatchObject({ success: true });
  return { username, password, email };
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  turnstile = await startTurnstileMock();
  server = await startServer({ kind, env: { TURNSTILE_VERIFY_URL: turnstile.url } });
  base = server.baseUrl;
  root = await signIn(base);
  for (const [key, value] of [
    ["SMTPServer", "127.0.0.1"],
    ["SMTPPort", String(smtp.port)],
    ["SMTPAccount", SMTP_USER],
    ["SMTPToken", SMTP_PASSWORD],
    ["SMTPFrom", "noreply@switchyard.test"],
    ["ServerAddress", base],
    ["EmailVerificationEnabled", "true"],
  ])
    await setOption(key!, value!);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await turnstile?.close();
});

describe("verification codes and registration", () => {
  it("a code mailed through the operator's SMTP server registers the account; the wrong code and a used code do not", async () => {
    const email = mailbox();
    expect((await askCode(email)).json).toMatchObject({ success: true, message: SENT });
    const mail = await smtp.nextMailTo(email);
    expect(smtp.logins).toContain(SMTP_USER);
    expect(mail.from?.value[0]?.address).toBe("noreply@switchyard.test");
    const code = codeIn(mail);
    expect(mail.html || "").toContain(code);

    const username = uniqueName("v");
    const body = { username, password: "password123", password2: "password123", email };
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect((await register({ ...body, verification_code: wrong })).json).toMatchObject({
      success: false,
      message: WRONG_CODE,
    });
    expect((await register(body)).json).toMatchObject({ success: false, message: "请输入验证码" });
    expect((await register({ ...body, verification_code: code })).json).toMatchObject({ success: true });
    expect(await signsIn(username, "password123")).toBe(true);
    // Sign-in by address, as in the reference.
    expect(await signsIn(email, "password123")).toBe(true);

    // Used once: the same code registers nobody else, and the address is now taken.
    const again = await register({ ...body, username: uniqueName("v"), verification_code: code });
    expect(again.json.success).toBe(false);
    expect((await askCode(email)).json).toMatchObject({ success: false, message: "邮箱地址已被占用" });
    expect((await askCode(email.toUpperCase())).json).toMatchObject({ success: false, message: "邮箱地址已被占用" });
  });

  it("a second code for one address within 30 s is refused with the wait, and no second mail goes out", async () => {
    const email = mailbox();
    const code = await codeFor(email);
    const again = await askCode(email);
    expect(again.json.success).toBe(false);
    const wait = Number(/请 (\d+) 秒后再试/.exec(again.json.message)?.[1]);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(30);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.filter((m) => m.text?.includes(email) || JSON.stringify(m.to).includes(email))).toHaveLength(
      0,
    );
    // The first code still works.
    const username = uniqueName("c");
    expect((await register({ username, password: "password123", email, verification_code: code })).json).toMatchObject({
      success: true,
    });
  });

  it("a code dies after 5 wrong guesses, even for the right one afterwards", async () => {
    const email = mailbox();
    const code = await codeFor(email);
    const wrong = code === "000000" ? "000001" : "000000";
    const body = { username: uniqueName("g"), password: "password123", email };
    for (let i = 1; i <= 4; i++)
      expect((await register({ ...body, verification_code: wrong })).json.message).toBe(WRONG_CODE);
    expect((await register({ ...body, verification_code: wrong })).json.message).toBe(
      "验证码错误次数过多，请重新获取验证码",
    );
    expect((await register({ ...body, verification_code: code })).json).toMatchObject({
      success: false,
      message: WRONG_CODE,
    });
  });

  it.skipIf(kind !== "postgres")(
    "an expired code is refused (codes live in PostgreSQL, valid 10 minutes)",
    async () => {
      const email = mailbox();
      const code = await codeFor(email);
      const db = new pg.Client({ connectionString: server.databaseUrl });
      await db.connect();
      try {
        const row = await db.query(
          "select code_hash, extract(epoch from expires_at - sent_at) as ttl from verification_codes where email = $1",
          [email],
        );
        expect(row.rows).toHaveLength(1);
        expect(row.rows[0].code_hash).not.toContain(code);
        expect(Number(row.rows[0].ttl)).toBe(600);
        await db.query("update verification_codes set expires_at = now() - interval '1 second' where email = $1", [
          email,
        ]);
      } finally {
        await db.end();
      }
      expect(
        (await register({ username: uniqueName("x"), password: "password123", email, verification_code: code })).json,
      ).toMatchObject({ success: false, message: WRONG_CODE });
    },
  );

  it.skipIf(kind !== "postgres")(
    "a code mailed by one node registers on another (codes are in the shared database, not a node's memory)",
    async () => {
      const other = await startServer({
        kind,
        env: { TURNSTILE_VERIFY_URL: turnstile.url },
        storage: { dataDir: server.dataDir, databaseUrl: server.databaseUrl },
        worker: false,
      });
      try {
        const email = mailbox("n");
        const code = await codeFor(email);
        const username = uniqueName("n");
        const res = await call(other.baseUrl, "/api/user/register", {
          method: "POST",
          body: { username, password: "password123", email, verification_code: code },
        });
        expect(res.json).toMatchObject({ success: true });
        expect(await signsIn(username, "password123")).toBe(true);
      } finally {
        await other.stop();
      }
    },
    120_000,
  );

  it("with Redis stopped, a code is still mailed and registers the account at once", async () => {
    const redis = await startTestRedis();
    const node = await startServer({ kind, env: { REDIS_URL: redis.url(0) }, worker: false });
    try {
      const admin = await signIn(node.baseUrl);
      for (const [key, value] of [
        ["SMTPServer", "127.0.0.1"],
        ["SMTPPort", String(smtp.port)],
        ["SMTPAccount", SMTP_USER],
        ["SMTPToken", SMTP_PASSWORD],
        ["EmailVerificationEnabled", "true"],
      ]) {
        expect(
          (await call(node.baseUrl, "/api/option/", { method: "PUT", headers: admin.auth, body: { key, value } })).json,
        ).toMatchObject({ success: true });
      }
      await redis.stop();
      const email = mailbox("o");
      const started = Date.now();
      expect((await call(node.baseUrl, `/api/verification?email=${encodeURIComponent(email)}`)).json).toMatchObject({
        success: true,
        message: SENT,
      });
      const code = codeIn(await smtp.nextMailTo(email));
      const res = await call(node.baseUrl, "/api/user/register", {
        method: "POST",
        body: { username: uniqueName("o"), password: "password123", email, verification_code: code },
      });
      expect(res.json).toMatchObject({ success: true });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await node.stop();
      await redis.stop().catch(() => undefined);
    }
  }, 180_000);

  it("the domain whitelist and the +alias rule refuse addresses when the operator turns them on", async () => {
    await setOption("EmailDomainWhitelist", "allowed.test");
    await setOption("EmailDomainRestrictionEnabled", "true");
    try {
      expect((await askCode(mailbox())).json).toMatchObject({
        success: false,
        message: "管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中",
      });
      const allowed = `${uniqueName("w")}@allowed.test`;
      expect((await askCode(allowed)).json).toMatchObject({ success: true });
      await smtp.nextMailTo(allowed);
    } finally {
      await setOption("EmailDomainRestrictionEnabled", "false");
    }
    await setOption("EmailAliasRestrictionEnabled", "true");
    try {
      expect((await askCode(`${uniqueName("a")}+shop@example.com`)).json).toMatchObject({
        success: false,
        message: "管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。",
      });
      const dotted = `first.${uniqueName("a")}@example.com`;
      expect((await askCode(dotted)).json).toMatchObject({ success: true });
      await smtp.nextMailTo(dotted);
    } finally {
      await setOption("EmailAliasRestrictionEnabled", "false");
    }
    expect((await askCode("not-an-address")).json).toMatchObject({ success: false, message: "邮箱地址格式错误" });
  });

  it("the console's 获取验证码 button (no JavaScript) mails a code and keeps what was typed, passwords excepted", async () => {
    const email = mailbox("f");
    const username = uniqueName("f");
    const form = new URLSearchParams({
      intent: "send-code",
      username,
      password: "secret-pass-1",
      password2: "secret-pass-1",
      email,
    });
    const res = await fetch(`${base}/register`, {
      method: "POST",
      body: form,
      headers: { "X-Forwarded-For": fakeIp() },
    });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain(SENT);
    expect(html).toContain(`value="${username}"`);
    expect(html).toContain(`value="${email}"`);
    expect(html).not.toContain("secret-pass-1");
    const code = codeIn(await smtp.nextMailTo(email));
    const submit = new URLSearchParams({
      username,
      password: "secret-pass-1",
      password2: "secret-pass-1",
      email,
      verification_code: code,
    });
    const done = await fetch(`${base}/register`, {
      method: "POST",
      body: submit,
      headers: { "X-Forwarded-For": fakeIp() },
      redirect: "manual",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/login");
    expect(await signsIn(username, "secret-pass-1")).toBe(true);
  });
});

describe("password reset", () => {
  it("the mailed link resets the password once: the new one signs in, the old one and old sessions do not", async () => {
    const user = await userWithEmail();
    const oldSession = await signIn(base, user.username, user.password);
    expect((await call(base, `/api/reset_password?email=${encodeURIComponent(user.email)}`)).json).toMatchObject({
      success: true,
    });
    const link = resetLinkIn(await smtp.nextMailTo(user.email));
    expect(`${link.origin}${link.pathname}`).toBe(`${base}/user/reset`);
    expect(link.searchParams.get("email")).toBe(user.email);
    const token = link.searchParams.get("token")!;
    expect(token).toMatch(/^[0-9a-f]{32}$/);

    // Opening the link (a mail scanner prefetching it) changes nothing.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("确认重置密码");
    expect(await signsIn(user.username, user.password)).toBe(true);

    const reset = await call(base, "/api/user/reset", { method: "POST", body: { email: user.email, token } });
    expect(reset.json.success).toBe(true);
    const password = reset.json.data as string;
    expect(password).toMatch(/^[0-9A-Za-z]{12}$/);
    expect(await signsIn(user.username, password)).toBe(true);
    expect(await signsIn(user.username, user.password)).toBe(false);
    expect((await call(base, "/api/user/self", { headers: oldSession.auth })).status).toBe(401);

    const reuse = await call(base, "/api/user/reset", { method: "POST", body: { email: user.email, token } });
    expect(reuse.json).toMatchObject({ success: false, message: "重置链接非法或已过期" });
    expect(await signsIn(user.username, password)).toBe(true);
  });

  it("the console confirm page resets on a button press (POST) and shows the new password once", async () => {
    const user = await userWithEmail();
    const form = new URLSearchParams({ email: user.email });
    const sent = await fetch(`${base}/reset`, { method: "POST", body: form, headers: { "X-Forwarded-For": fakeIp() } });
    expect(await sent.text()).toContain("重置邮件发送成功");
    const link = resetLinkIn(await smtp.nextMailTo(user.email));
    const confirm = new URLSearchParams({
      email: link.searchParams.get("email")!,
      token: link.searchParams.get("token")!,
    });
    const res = await fetch(`${base}/user/reset`, {
      method: "POST",
      body: confirm,
      headers: { "X-Forwarded-For": fakeIp() },
    });
    const html = await res.text();
    const password =
      /data-testid="new-password"[^>]*value="([0-9A-Za-z]{12})"|value="([0-9A-Za-z]{12})"[^>]*data-testid="new-password"/.exec(
        html,
      );
    expect(password).not.toBeNull();
    expect(await signsIn(user.username, (password![1] ?? password![2])!)).toBe(true);
  });

  it("an unregistered address and a forged token are refused", async () => {
    expect((await call(base, `/api/reset_password?email=${encodeURIComponent(mailbox("n"))}`)).json).toMatchObject({
      success: false,
      message: "该邮箱地址未注册",
    });
    const user = await userWithEmail();
    const forged = await call(base, "/api/user/reset", {
      method: "POST",
      body: { email: user.email, token: "0".repeat(32) },
    });
    expect(forged.json).toMatchObject({ success: false, message: "重置链接非法或已过期" });
    expect(await signsIn(user.username, user.password)).toBe(true);
    expect((await call(base, "/api/user/reset", { method: "POST", body: { email: 5 } })).status).toBe(400);
  });
});

describe("email binding", () => {
  it("a signed-in user binds the address a code went to; the wrong code binds nothing", async () => {
    const user = await signIn(base, (await userWithEmail()).username, "password123");
    const email = mailbox("b");
    const code = await codeFor(email);
    const bind = (c: string) =>
      call(base, `/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${c}`, { headers: user.auth });
    expect((await bind(code === "123456" ? "654321" : "123456")).json).toMatchObject({
      success: false,
      message: WRONG_CODE,
    });
    expect((await bind(code)).json).toMatchObject({ success: true, message: "邮箱账户绑定成功！" });
    expect((await call(base, "/api/user/self", { headers: user.auth })).json.data.email).toBe(email);
    expect((await bind(code)).json.success).toBe(false);
  });

  it("the settings card sends the code and binds with it as plain form posts", async () => {
    const owner = await userWithEmail();
    const session = await signIn(base, owner.username, owner.password);
    const email = mailbox("s");
    const post = (fields: Record<string, string>) =>
      fetch(`${base}/setting`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Cookie: session.auth.Cookie!, "X-Forwarded-For": fakeIp() },
        redirect: "manual",
      });
    expect(await (await post({ intent: "email-code", email: "" })).text()).toContain("请输入邮箱！");
    const sent = await (await post({ intent: "email-code", email })).text();
    expect(sent).toContain(SENT);
    expect(sent).toContain(`value="${email}"`);
    const code = codeIn(await smtp.nextMailTo(email));
    expect(await (await post({ intent: "email-code", email })).text()).toMatch(/发送过于频繁，请 \d+ 秒后再试/);
    expect(await (await post({ intent: "email-bind", email, code: "" })).text()).toContain("请输入邮箱验证码！");
    const bound = await post({ intent: "email-bind", email, code });
    expect(bound.status).toBe(302);
    expect((await call(base, "/api/user/self", { headers: session.auth })).json.data.email).toBe(email);
  });
});

describe("when mail cannot be sent", () => {
  it("an unreachable SMTP server, an unset one and a metadata address answer a clear refusal, never a 500, and leave no cooldown", async () => {
    const registered = await userWithEmail();
    const closed = await freePort();
    await setOption("SMTPPort", String(closed));
    try {
      const email = mailbox("d");
      for (let i = 0; i < 2; i++) {
        const res = await askCode(email);
        expect(res.status).toBe(200);
        expect(res.json).toMatchObject({ success: false, message: "邮件发送失败，请稍后重试或联系管理员" });
      }
      await setOption("SMTPServer", "169.254.169.254");
      const started = Date.now();
      expect((await askCode(email)).json).toMatchObject({
        success: false,
        message: "邮件发送失败，请稍后重试或联系管理员",
      });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(server.output()).toContain("SMTP server address refused");
      await setOption("SMTPServer", "");
      expect((await askCode(email)).json).toMatchObject({
        success: false,
        message: "管理员未配置 SMTP 邮件服务器，无法发送邮件",
      });
      const resetRes = await call(base, `/api/reset_password?email=${encodeURIComponent(registered.email)}`);
      expect(resetRes.status).toBe(200);
      expect(resetRes.json).toMatchObject({ success: false, message: "管理员未配置 SMTP 邮件服务器，无法发送邮件" });
    } finally {
      await setOption("SMTPServer", "127.0.0.1");
      await setOption("SMTPPort", String(smtp.port));
    }
  });
});

describe("roles and limits of the email routes", () => {
  it("role matrix: verification, reset mail and reset are open to visitors; email bind needs a signed-in user", async () => {
    const ordinary = await signIn(base, (await userWithEmail()).username, "password123");
    const adminUser = await userWithEmail();
    const promoted = (await call(base, "/api/user/search?keyword=" + adminUser.username, { headers: root.auth })).json
      .data[0].id as number;
    expect(
      (
        await call(base, "/api/user/manage", {
          method: "POST",
          headers: root.auth,
          body: { id: promoted, action: "promote" },
        })
      ).json.success,
    ).toBe(true);
    const admin = await signIn(base, adminUser.username, adminUser.password);
    const callers: [string, Record<string, string>][] = [
      ["visitor", {}],
      ["user", ordinary.auth],
      ["admin", admin.auth],
      ["root", root.auth],
    ];
    for (const [who, headers] of callers) {
      const verification = await call(base, `/api/verification?email=${encodeURIComponent(mailbox("q"))}`, { headers });
      expect(verification.json, `${who} verification`).toMatchObject({ success: true, message: SENT });
      const resetMail = await call(base, `/api/reset_password?email=${encodeURIComponent(mailbox("q"))}`, { headers });
      expect(resetMail.json, `${who} reset mail`).toMatchObject({ success: false, message: "该邮箱地址未注册" });
      const reset = await call(base, "/api/user/reset", {
        method: "POST",
        headers,
        body: { email: mailbox("q"), token: "x" },
      });
      expect(reset.json, `${who} reset`).toMatchObject({ success: false, message: "重置链接非法或已过期" });
      const bind = await call(base, `/api/oauth/email/bind?email=${encodeURIComponent(mailbox("q"))}&code=123456`, {
        headers,
      });
      if (who === "visitor") expect(bind.status, "visitor bind").toBe(401);
      else expect(bind.json, `${who} bind`).toMatchObject({ success: false, message: WRONG_CODE });
    }
  });

  it("the critical rate limit covers the mail routes (20 per window per IP), answered 429", async () => {
    const ip = fakeIp();
    let limited = 0;
    for (let i = 0; i < 21; i++) {
      const res = await call(base, `/api/reset_password?email=${encodeURIComponent(mailbox("l"))}`, {
        headers: { "X-Forwarded-For": ip },
      });
      if (res.status === 429) limited++;
    }
    expect(limited).toBe(1);
  });
});

describe("Turnstile", () => {
  it("when enabled, every protected action needs its own token verified at siteverify; a missing, forged, reused token or an outage refuses", async () => {
    await setOption("TurnstileSiteKey", "site-key-for-tests");
    await setOption("TurnstileSecretKey", turnstile.secret);
    await setOption("TurnstileCheckEnabled", "true");
    try {
      const status = (await call(base, "/api/status")).json.data;
      expect(status).toMatchObject({ turnstile_check: true, turnstile_site_key: "site-key-for-tests" });
      const email = mailbox("t");
      expect((await askCode(email)).json).toMatchObject({ success: false, message: TURNSTILE_WAIT });
      expect((await askCode(email, "&turnstile=forged")).json).toMatchObject({
        success: false,
        message: TURNSTILE_WAIT,
      });
      const ip = fakeIp();
      const token = turnstile.issueToken();
      const ok = await call(base, `/api/verification?email=${encodeURIComponent(email)}&turnstile=${token}`, {
        headers: { "X-Forwarded-For": ip },
      });
      expect(ok.json).toMatchObject({ success: true, message: SENT });
      expect(turnstile.calls.at(-1)).toEqual({ secret: turnstile.secret, response: token, remoteip: ip });
      const code = codeIn(await smtp.nextMailTo(email));

      // No session-wide pass: the next action with the spent token is refused again.
      const username = uniqueName("t");
      const body = { username, password: "password123", email, verification_code: code };
      expect((await register(body, `?turnstile=${token}`)).json).toMatchObject({
        success: false,
        message: TURNSTILE_WAIT,
      });
      expect((await register(body)).json).toMatchObject({ success: false, message: TURNSTILE_WAIT });
      expect((await register(body, `?turnstile=${turnstile.issueToken()}`)).json).toMatchObject({ success: true });

      const login = (query: string) =>
        call(base, `/api/user/login${query}`, { method: "POST", body: { username, password: "password123" } });
      expect((await login("")).json).toMatchObject({ success: false, message: TURNSTILE_WAIT });
      expect((await login(`?turnstile=${turnstile.issueToken()}`)).json).toMatchObject({ success: true });
      expect((await call(base, `/api/reset_password?email=${encodeURIComponent(email)}`)).json).toMatchObject({
        success: false,
        message: TURNSTILE_WAIT,
      });

      // The console form carries the widget's field.
      const page = await (await fetch(`${base}/login`)).text();
      expect(page).toContain('class="cf-turnstile" data-sitekey="site-key-for-tests"');
      expect(page).toContain("https://challenges.cloudflare.com/turnstile/v0/api.js");
      const consoleLogin = (fields: Record<string, string>) =>
        fetch(`${base}/login`, {
          method: "POST",
          body: new URLSearchParams({ username, password: "password123", ...fields }),
          headers: { "X-Forwarded-For": fakeIp() },
          redirect: "manual",
        });
      expect(await (await consoleLogin({})).text()).toContain(TURNSTILE_WAIT);
      expect((await consoleLogin({ "cf-turnstile-response": turnstile.issueToken() })).status).toBe(302);

      // Cloudflare unreachable or failing: closed, not open.
      turnstile.failWith = 500;
      expect((await login(`?turnstile=${turnstile.issueToken()}`)).json).toMatchObject({
        success: false,
        message: TURNSTILE_WAIT,
      });
    } finally {
      turnstile.failWith = undefined;
      await setOption("TurnstileCheckEnabled", "false");
    }
    expect(await (await fetch(`${base}/login`)).text()).not.toContain("challenges.cloudflare.com");
  });
});
