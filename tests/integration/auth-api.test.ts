import { describe, expect, it } from "vitest";
import { baseUrl, login, loginRoot, newAdmin, newUser, request, uniqueName } from "../support/api";

describe("GET /api/status", () => {
  it("answers every key of the reference's status object without authentication", async () => {
    const res = await request("GET", "/api/status");
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    const keys = [
      "version",
      "start_time",
      "email_verification",
      "github_oauth",
      "github_client_id",
      "telegram_oauth",
      "telegram_bot_name",
      "system_name",
      "logo",
      "footer_html",
      "wechat_qrcode",
      "wechat_login",
      "server_address",
      "price",
      "min_topup",
      "turnstile_check",
      "turnstile_site_key",
      "top_up_link",
      "chat_link",
      "chat_link2",
      "quota_per_unit",
      "display_in_currency",
      "enable_batch_update",
      "enable_drawing",
      "enable_task",
      "enable_data_export",
      "data_export_default_time",
      "default_collapse_sidebar",
      "enable_online_topup",
      "mj_notify_enabled",
      "chats",
    ];
    for (const key of keys) expect(res.json.data, key).toHaveProperty(key);
    expect(res.json.data.quota_per_unit).toBe(500000);
    expect(res.json.data.price).toBe(7.3);
    expect(Array.isArray(res.json.data.chats)).toBe(true);
  });

  it("serves notice, about and home page content as strings", async () => {
    for (const path of ["/api/notice", "/api/about", "/api/home_page_content"]) {
      const res = await request("GET", path);
      expect(res.json.success, path).toBe(true);
      expect(typeof res.json.data, path).toBe("string");
    }
  });
});

describe("sign-in over /api", () => {
  it("root signs in with the default password and gets the reference's six-field user", async () => {
    const res = await request("POST", "/api/user/login", { username: "root", password: "123456" });
    expect(res.json.success).toBe(true);
    expect(res.json.data).toMatchObject({ username: "root", role: 100, status: 1, group: "default" });
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it("refuses a wrong password with the reference's message", async () => {
    const res = await request("POST", "/api/user/login", { username: "root", password: "wrong-password" });
    expect(res.json).toEqual({ success: false, message: "用户名或密码错误，或用户已被封禁" });
  });

  it("rejects malformed JSON, wrong types and oversized bodies with success:false, never a 500", async () => {
    const bad = await request("POST", "/api/user/login", "{not json", { "Content-Type": "application/json" });
    expect(bad.status).toBeLessThan(500);
    expect(bad.json.success).toBe(false);
    expect(bad.json.message).toContain("JSON");
    const wrongType = await request("POST", "/api/user/login", { username: 42, password: ["x"] });
    expect(wrongType.status).toBeLessThan(500);
    expect(wrongType.json.success).toBe(false);
    const huge = await request("POST", "/api/user/register", { username: "x", password: "y".repeat(2_000_000) });
    expect(huge.status).toBe(413);
    expect(huge.json.success).toBe(false);
  });

  it("rate-limits sign-in per address: the 21st attempt in the window is refused with 429", async () => {
    // From 198.18.0.0/15, which fakeIp never produces, so no other test inherits this address's
    // used-up limit (with Redis the count outlives the run, hence a random one).
    const ip = `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const res = await request(
        "POST",
        "/api/user/login",
        { username: "nobody", password: "x" },
        { "X-Forwarded-For": ip },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    const other = await request("POST", "/api/user/login", { username: "nobody", password: "x" });
    expect(other.status).toBe(200);
  });

  it("counts failed sign-ins only: 30 right passwords from one address all get in, and wrong ones are still cut off after 20", async () => {
    const { username } = await newUser("password123");
    // A fresh 198.18.0.0/15 address, as above, so no other test shares this budget.
    const ip = `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;
    const headers = { "X-Forwarded-For": ip };
    for (let i = 0; i < 25; i += 1) {
      const res = await request("POST", "/api/user/login", { username, password: "password123" }, headers);
      expect(res.status, `API sign-in ${i + 1}`).toBe(200);
      expect(res.json.success, `API sign-in ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < 5; i += 1) {
      const res = await fetch(baseUrl() + "/login", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ username, password: "password123" }),
        redirect: "manual",
      });
      expect(res.status, `console sign-in ${i + 1}`).toBe(302);
    }
    // The successes left the shared budget untouched: OAuth on this address still answers.
    const state = await request("GET", "/api/oauth/state", undefined, headers);
    expect(state.status).toBe(200);
    // 1 hit used by the state above; 19 more wrong guesses fill the budget of 20.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      statuses.push(
        (await request("POST", "/api/user/login", { username, password: "wrong-password" }, headers)).status,
      );
    }
    expect(statuses.slice(0, 19).every((s) => s === 200)).toBe(true);
    expect(statuses[19]).toBe(429);
    // Once the failures used it up, even the right password waits: the check never runs.
    const right = await request("POST", "/api/user/login", { username, password: "password123" }, headers);
    expect(right.status).toBe(429);
  });
});

describe("registration", () => {
  it("registers a user who can then sign in; a taken name is refused", async () => {
    const username = uniqueName();
    const ok = await request("POST", "/api/user/register", {
      username,
      password: "password123",
      password2: "password123",
    });
    expect(ok.json).toMatchObject({ success: true });
    const again = await request("POST", "/api/user/register", { username, password: "password123" });
    expect(again.json).toEqual({ success: false, message: "用户名已存在，或已注销" });
    const session = await login(username, "password123");
    const self = await session.call("GET", "/api/user/self");
    expect(self.json.data).toMatchObject({ username, role: 1, status: 1, password: "", access_token: null });
  });

  it("applies the product's password rules", async () => {
    const short = await request("POST", "/api/user/register", { username: uniqueName(), password: "short" });
    expect(short.json.success).toBe(false);
    expect(short.json.message).toContain("密码长度不得小于 8 位！");
    const mismatch = await request("POST", "/api/user/register", {
      username: uniqueName(),
      password: "password123",
      password2: "password124",
    });
    expect(mismatch.json.success).toBe(false);
    expect(mismatch.json.message).toContain("两次输入的密码不一致");
  });

  it("credits the inviter and the invitee according to the quota options", async () => {
    const root = await loginRoot();
    await root.call("PUT", "/api/option/", { key: "QuotaForInviter", value: "700" });
    await root.call("PUT", "/api/option/", { key: "QuotaForInvitee", value: "300" });
    try {
      const inviter = await newUser();
      const affCode = (await inviter.call("GET", "/api/user/self")).json.data.aff_code as string;
      expect(affCode).toMatch(/^\w{4}$/);
      const username = uniqueName();
      await request("POST", "/api/user/register", { username, password: "password123", aff_code: affCode });
      const invitee = await login(username, "password123");
      const inviteeSelf = (await invitee.call("GET", "/api/user/self")).json.data;
      expect(inviteeSelf.quota).toBe(300);
      expect(inviteeSelf.inviter_id).toBe(inviter.userId);
      const inviterSelf = (await inviter.call("GET", "/api/user/self")).json.data;
      expect(inviterSelf).toMatchObject({ aff_count: 1, aff_quota: 700, aff_history_quota: 700 });
    } finally {
      await root.call("PUT", "/api/option/", { key: "QuotaForInviter", value: "0" });
      await root.call("PUT", "/api/option/", { key: "QuotaForInvitee", value: "0" });
    }
  });

  it("honours RegisterEnabled", async () => {
    const root = await loginRoot();
    await root.call("PUT", "/api/option/", { key: "RegisterEnabled", value: "false" });
    try {
      const res = await request("POST", "/api/user/register", { username: uniqueName(), password: "password123" });
      expect(res.json).toEqual({ success: false, message: "管理员关闭了新用户注册" });
    } finally {
      await root.call("PUT", "/api/option/", { key: "RegisterEnabled", value: "true" });
    }
  });
});

describe("session authentication", () => {
  it("requires New-Api-User with the session and refuses a mismatch", async () => {
    const user = await newUser();
    const missing = await request("GET", "/api/user/self", undefined, { Cookie: user.cookie });
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ success: false, message: "无权进行此操作，请刷新页面或清空缓存后重试" });
    const mismatch = await request("GET", "/api/user/self", undefined, {
      Cookie: user.cookie,
      "New-Api-User": String(user.userId + 1),
    });
    expect(mismatch.status).toBe(401);
    expect(mismatch.json.message).toContain("不匹配");
    const anonymous = await request("GET", "/api/user/self");
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ success: false, message: "无权进行此操作，未登录且未提供 access token" });
  });

  it("logout kills the session on the server, not only in the browser", async () => {
    const user = await newUser();
    expect((await user.call("GET", "/api/user/self")).json.success).toBe(true);
    const out = await user.call("GET", "/api/user/logout");
    expect(out.json.success).toBe(true);
    const after = await user.call("GET", "/api/user/self");
    expect(after.json.success).toBe(false);
    expect(after.status).toBe(401);
  });

  it("a system access token authenticates without a session and is shown only once", async () => {
    const user = await newUser();
    const token = (await user.call("GET", "/api/user/token")).json.data as string;
    expect(token.length).toBeGreaterThanOrEqual(28);
    const viaToken = await request("GET", "/api/user/self", undefined, { Authorization: token });
    expect(viaToken.json.data.id).toBe(user.userId);
    expect(viaToken.json.data.access_token).toBeNull();
    const bearer = await request("GET", "/api/user/self", undefined, { Authorization: `Bearer ${token}` });
    expect(bearer.json.data.id).toBe(user.userId);
    const wrong = await request("GET", "/api/user/self", undefined, { Authorization: "not-a-token" });
    expect(wrong.status).toBe(200);
    expect(wrong.json.success).toBe(false);
    await user.call("GET", "/api/user/token");
    const stale = await request("GET", "/api/user/self", undefined, { Authorization: token });
    expect(stale.json.success).toBe(false);
  });
});

describe("role guards", () => {
  it("an ordinary user cannot reach admin or root endpoints", async () => {
    const user = await newUser();
    const manage = await user.call("POST", "/api/user/manage", { id: 1, action: "disable" });
    expect(manage.json).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    const options = await user.call("GET", "/api/option/");
    expect(options.json).toEqual({ success: false, message: "无权进行此操作，权限不足" });
  });

  it("an admin manages users but cannot read or write options (root only)", async () => {
    const admin = await newAdmin();
    const target = await newUser();
    const ban = await admin.call("POST", "/api/user/manage", { id: target.userId, action: "disable" });
    expect(ban.json).toMatchObject({ success: true, data: { status: 2, role: 1 } });
    const options = await admin.call("GET", "/api/option/");
    expect(options.json.success).toBe(false);
    const promote = await admin.call("POST", "/api/user/manage", { id: target.userId, action: "promote" });
    expect(promote.json.success).toBe(false);
    const onRoot = await admin.call("POST", "/api/user/manage", { id: 1, action: "disable" });
    expect(onRoot.json.success).toBe(false);
  });

  it("banning revokes the user's sessions at once and blocks sign-in", async () => {
    const root = await loginRoot();
    const user = await newUser();
    await root.call("POST", "/api/user/manage", { id: user.userId, action: "disable" });
    const after = await user.call("GET", "/api/user/self");
    expect(after.json.success).toBe(false);
    const relogin = await request("POST", "/api/user/login", { username: user.username, password: "password123" });
    expect(relogin.json.success).toBe(false);
  });

  it("demotion takes effect on the next request, with no re-login", async () => {
    const root = await loginRoot();
    const admin = await newAdmin();
    const target = await newUser();
    await root.call("POST", "/api/user/manage", { id: admin.userId, action: "demote" });
    const res = await admin.call("POST", "/api/user/manage", { id: target.userId, action: "disable" });
    expect(res.json).toEqual({ success: false, message: "无权进行此操作，权限不足" });
  });

  it("unknown /api paths answer 404 in the API envelope", async () => {
    const res = await request("GET", "/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(res.json.success).toBe(false);
  });
});

describe("self service", () => {
  it("changing the password needs the old one and signs out other sessions", async () => {
    const user = await newUser();
    const other = await login(user.username, "password123");
    const noOld = await user.call("PUT", "/api/user/self", { password: "newpassword1" });
    expect(noOld.json.success).toBe(false);
    const wrongOld = await user.call("PUT", "/api/user/self", {
      password: "newpassword1",
      original_password: "nope-nope",
    });
    expect(wrongOld.json).toEqual({ success: false, message: "原密码错误" });
    const ok = await user.call("PUT", "/api/user/self", { password: "newpassword1", original_password: "password123" });
    expect(ok.json.success).toBe(true);
    expect((await user.call("GET", "/api/user/self")).json.success).toBe(true);
    expect((await other.call("GET", "/api/user/self")).json.success).toBe(false);
    await expect(login(user.username, "password123")).rejects.toThrow();
    await login(user.username, "newpassword1");
  });

  it("updates the display name", async () => {
    const user = await newUser();
    await user.call("PUT", "/api/user/self", { display_name: "Ada" });
    expect((await user.call("GET", "/api/user/self")).json.data.display_name).toBe("Ada");
  });

  it("deletes one's own account (sessions die, name is free again); root cannot delete itself", async () => {
    const user = await newUser();
    const del = await user.call("DELETE", "/api/user/self");
    expect(del.json.success).toBe(true);
    expect((await user.call("GET", "/api/user/self")).json.success).toBe(false);
    const again = await request("POST", "/api/user/register", { username: user.username, password: "password123" });
    expect(again.json.success).toBe(true);
    const root = await loginRoot();
    const rootDelete = await root.call("DELETE", "/api/user/self");
    expect(rootDelete.json.success).toBe(false);
  });
});

describe("options", () => {
  it("root reads options without secrets, and invalid values are refused and never stored", async () => {
    const root = await loginRoot();
    const list = await root.call("GET", "/api/option/");
    expect(list.json.success).toBe(true);
    const keys = (list.json.data as { key: string }[]).map((o) => o.key);
    expect(keys).toContain("SystemName");
    expect(keys.some((k) => /(Token|Secret|Key)$/.test(k))).toBe(false);

    const retryBefore = (list.json.data as { key: string; value: string }[]).find((o) => o.key === "RetryTimes")?.value;
    const badInt = await root.call("PUT", "/api/option/", { key: "RetryTimes", value: "abc" });
    expect(badInt.json.success).toBe(false);
    const badJson = await root.call("PUT", "/api/option/", { key: "GroupRatio", value: "{not json" });
    expect(badJson.json.success).toBe(false);
    const unknown = await root.call("PUT", "/api/option/", { key: "NoSuchOption", value: "1" });
    expect(unknown.json.success).toBe(false);
    const after = await root.call("GET", "/api/option/");
    const retry = (after.json.data as { key: string; value: string }[]).find((o) => o.key === "RetryTimes");
    expect(retry?.value).toBe(retryBefore);
    expect(retry?.value).toMatch(/^\d+$/);
  });

  it("a saved option is visible in /api/status at once", async () => {
    const root = await loginRoot();
    const previous = (await request("GET", "/api/status")).json.data.system_name as string;
    const name = `Yard ${uniqueName()}`;
    const res = await root.call("PUT", "/api/option/", { key: "SystemName", value: name });
    expect(res.json.success).toBe(true);
    expect((await request("GET", "/api/status")).json.data.system_name).toBe(name);
    await root.call("PUT", "/api/option/", { key: "SystemName", value: previous });
  });
});
