import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, login, loginRoot, newAdmin, newUser, request, uniqueName, type ApiSession } from "../support/api";
import { createChannel, setOption, uniqueModel } from "../support/relay";

/**
 * Personal settings: invite codes and rewards, moving invite earnings into quota
 * (decision 015), the system access token, models and self-deletion, with their role matrix.
 */
const FORBIDDEN_401 = "无权进行此操作，未登录且未提供 access token";
const INSUFFICIENT = "邀请额度不足！";
const REWARD_KEYS = ["QuotaForNewUser", "QuotaForInvitee", "QuotaForInviter"] as const;

let root: ApiSession;
let unit: number;
let saved: Record<string, string>;

beforeAll(async () => {
  root = await loginRoot();
  unit = (await request("GET", "/api/status")).json.data.quota_per_unit as number;
  const all = (await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[];
  saved = Object.fromEntries(REWARD_KEYS.map((key) => [key, all.find((o) => o.key === key)?.value ?? "0"]));
});

afterAll(async () => {
  for (const key of REWARD_KEYS) await setOption(root, key, saved[key] ?? "0");
});

async function rewards(values: Partial<Record<(typeof REWARD_KEYS)[number], number>>) {
  for (const key of REWARD_KEYS) await setOption(root, key, String(values[key] ?? 0));
}

const self = async (user: ApiSession) => (await user.call("GET", "/api/user/self")).json.data;
const affCode = async (user: ApiSession) => (await user.call("GET", "/api/user/aff")).json.data as string;

/** Registers a new account through `inviter`'s code; returns its name. */
async function registerInvitee(code: string): Promise<string> {
  const username = uniqueName("i");
  const res = await request("POST", "/api/user/register", {
    username,
    password: "password123",
    password2: "password123",
    aff_code: code,
  });
  expect(res.json, JSON.stringify(res.json)).toMatchObject({ success: true });
  return username;
}

/** System logs (type 4) of a user, newest first. */
async function systemLogs(user: ApiSession): Promise<string[]> {
  const res = await user.call("GET", "/api/log/self?p=1&page_size=100&type=4");
  return (res.json.data.items as { content: string }[]).map((row) => row.content);
}

/** A fresh user whose invite earnings are `units` quota units (one invitee at QuotaForInviter = units). */
async function userWithEarnings(units: number, existing?: ApiSession): Promise<ApiSession> {
  const user = existing ?? (await newUser());
  await rewards({ QuotaForInviter: units * unit });
  try {
    await registerInvitee(await affCode(user));
  } finally {
    await rewards({});
  }
  return user;
}

describe("GET /api/user/aff", () => {
  it("answers the account's 4-character invite code, the same each time and the one /api/user/self shows", async () => {
    const user = await newUser();
    const code = await affCode(user);
    expect(code).toMatch(/^[0-9A-Za-z]{4}$/);
    expect(await affCode(user)).toBe(code);
    expect((await self(user)).aff_code).toBe(code);
  });
});

describe("invite rewards at registration", () => {
  it("credits the new user, the invitee and the inviter once, with the reference's system logs", async () => {
    const inviter = await newUser();
    const code = await affCode(inviter);
    await rewards({ QuotaForNewUser: 100, QuotaForInvitee: 200, QuotaForInviter: 3 * unit });
    let username: string;
    try {
      username = await registerInvitee(code);
      // The same name again fails and must reward nobody a second time.
      const again = await request("POST", "/api/user/register", {
        username,
        password: "password123",
        password2: "password123",
        aff_code: code,
      });
      expect(again.json.success).toBe(false);
    } finally {
      await rewards({});
    }
    const invitee = await login(username, "password123");
    expect(await self(invitee)).toMatchObject({ quota: 300, inviter_id: inviter.userId });
    expect(await self(inviter)).toMatchObject({
      aff_count: 1,
      aff_quota: 3 * unit,
      aff_history_quota: 3 * unit,
      quota: 0,
    });
    const inviteeLogs = await systemLogs(invitee);
    expect(inviteeLogs.filter((c) => c.startsWith("新用户注册赠送"))).toHaveLength(1);
    expect(inviteeLogs.filter((c) => c.startsWith("使用邀请码赠送"))).toHaveLength(1);
    expect((await systemLogs(inviter)).filter((c) => c.startsWith("邀请用户赠送"))).toEqual([
      "邀请用户赠送 ＄3.000000 额度",
    ]);
  });

  it("ten registrations racing for one name through one invite code count one invite and reward once", async () => {
    const inviter = await newUser();
    const code = await affCode(inviter);
    const username = uniqueName("r");
    await rewards({ QuotaForInvitee: 50, QuotaForInviter: 70 });
    let results: { json: any }[];
    try {
      results = await Promise.all(
        Array.from({ length: 10 }, () =>
          request("POST", "/api/user/register", {
            username,
            password: "password123",
            password2: "password123",
            aff_code: code,
          }),
        ),
      );
    } finally {
      await rewards({});
    }
    expect(results.filter((r) => r.json?.success === true)).toHaveLength(1);
    expect(await self(inviter)).toMatchObject({ aff_count: 1, aff_quota: 70, aff_history_quota: 70 });
    expect((await systemLogs(inviter)).filter((c) => c.startsWith("邀请用户赠送"))).toHaveLength(1);
  });

  it("an unknown code or a deleted inviter rewards nobody, and the registration still succeeds", async () => {
    const gone = await newUser();
    const goneCode = await affCode(gone);
    expect((await gone.call("DELETE", "/api/user/self")).json.success).toBe(true);
    await rewards({ QuotaForNewUser: 10, QuotaForInvitee: 200, QuotaForInviter: 300 });
    let names: string[];
    try {
      names = [await registerInvitee("zzzzzzzzzz"), await registerInvitee(goneCode)];
    } finally {
      await rewards({});
    }
    for (const name of names)
      expect(await self(await login(name, "password123"))).toMatchObject({ quota: 10, inviter_id: 0 });
    const deleted = (await root.call("GET", `/api/user/${gone.userId}`)).json.data;
    expect(deleted).toMatchObject({ aff_count: 0, aff_quota: 0 });
    expect(deleted.DeletedAt).not.toBeNull();
  });
});

describe("POST /api/user/aff_transfer", () => {
  it("refuses less than one quota unit with the reference's message, more than the earnings, and a non-integer", async () => {
    const user = await userWithEarnings(2);
    expect((await user.call("POST", "/api/user/aff_transfer", { quota: unit - 1 })).json).toEqual({
      success: false,
      message: "划转金额最低为 $1.00",
    });
    expect((await user.call("POST", "/api/user/aff_transfer", { quota: -5 * unit })).json.success).toBe(false);
    expect((await user.call("POST", "/api/user/aff_transfer", { quota: 3 * unit })).json).toEqual({
      success: false,
      message: INSUFFICIENT,
    });
    const fraction = await user.call("POST", "/api/user/aff_transfer", { quota: unit + 0.5 });
    expect(fraction.status).toBe(400);
    expect(fraction.json.success).toBe(false);
    expect(await self(user)).toMatchObject({ quota: 0, aff_quota: 2 * unit });
  });

  it("moves earnings into quota and writes a log row", async () => {
    const user = await userWithEarnings(2);
    expect((await user.call("POST", "/api/user/aff_transfer", { quota: unit })).json).toMatchObject({
      success: true,
      message: "划转成功",
    });
    expect(await self(user)).toMatchObject({ quota: unit, aff_quota: unit, aff_history_quota: 2 * unit });
    expect((await systemLogs(user)).filter((c) => c.startsWith("邀请额度划转到余额"))).toEqual([
      "邀请额度划转到余额 ＄1.000000 额度",
    ]);
  });

  it("100 parallel transfers never move more than there is: quota + aff_quota is conserved, one log per transfer", async () => {
    const user = await userWithEarnings(7);
    const before = await self(user);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => user.call("POST", "/api/user/aff_transfer", { quota: 2 * unit })),
    );
    for (const res of results) expect(res.status, JSON.stringify(res.json)).toBe(200);
    const succeeded = results.filter((r) => r.json.success).length;
    expect(results.filter((r) => !r.json.success).every((r) => r.json.message === INSUFFICIENT)).toBe(true);
    expect(succeeded).toBe(3);
    const after = await self(user);
    expect(after.aff_quota).toBe(unit);
    expect(after.quota).toBe(before.quota + 6 * unit);
    expect(after.quota + after.aff_quota).toBe(before.quota + before.aff_quota);
    expect((await systemLogs(user)).filter((c) => c.startsWith("邀请额度划转到余额"))).toHaveLength(succeeded);
  });
});

describe("system access token", () => {
  it("is shown once, authenticates /api/user/self by Authorization, and a new one ends the old", async () => {
    const user = await newUser();
    const first = (await user.call("GET", "/api/user/token")).json.data as string;
    expect(first).toMatch(/^[0-9A-Za-z]{32}$/);
    const viaFirst = await request("GET", "/api/user/self", undefined, { Authorization: first });
    expect(viaFirst.json).toMatchObject({ success: true, data: { id: user.userId, access_token: null } });
    expect(JSON.stringify(viaFirst.json)).not.toContain(first);
    const second = (await user.call("GET", "/api/user/token")).json.data as string;
    expect(second).not.toBe(first);
    expect((await request("GET", "/api/user/self", undefined, { Authorization: first })).json.success).toBe(false);
    expect(
      (await request("GET", "/api/user/self", undefined, { Authorization: `Bearer ${second}` })).json.data.id,
    ).toBe(user.userId);
  });

  it("the console card answers the new token once and the page never shows it again", async () => {
    const user = await newUser();
    const posted = await fetch(`${baseUrl()}/setting`, {
      method: "POST",
      headers: { Cookie: user.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "access-token" }).toString(),
      redirect: "manual",
    });
    expect(posted.status).toBe(200);
    const token =
      /id="access-token-value"[^>]*value="([0-9A-Za-z]{32})"|value="([0-9A-Za-z]{32})"[^>]*id="access-token-value"/.exec(
        await posted.text(),
      );
    const shown = token?.[1] ?? token?.[2];
    expect(shown).toBeDefined();
    expect((await request("GET", "/api/user/self", undefined, { Authorization: shown! })).json.data.id).toBe(
      user.userId,
    );
    const html = await (await fetch(`${baseUrl()}/setting`, { headers: { Cookie: user.cookie } })).text();
    expect(html).toContain("生成系统访问令牌");
    expect(html).not.toContain(shown!);
  });
});

describe("GET /api/user/models", () => {
  it("lists the enabled models of the user's group", async () => {
    const model = uniqueModel("pm");
    await createChannel(root, { models: model, base_url: "http://127.0.0.1:9" });
    const user = await newUser();
    const res = await user.call("GET", "/api/user/models");
    expect(res.json.success).toBe(true);
    expect(res.json.data).toContain(model);
  });
});

describe("DELETE /api/user/self", () => {
  it("deletes the account, ends its sessions and frees nothing else; the name can no longer sign in", async () => {
    const user = await newUser();
    const res = await user.call("DELETE", "/api/user/self");
    expect(res.json).toEqual({ success: true, message: "" });
    expect(res.headers.get("set-cookie") ?? "").toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect((await user.call("GET", "/api/user/self")).status).toBe(401);
    const again = await request("POST", "/api/user/login", { username: user.username, password: "password123" });
    expect(again.json.success).toBe(false);
  });

  it("root cannot delete itself", async () => {
    expect((await root.call("DELETE", "/api/user/self")).json).toEqual({
      success: false,
      message: "不能删除超级管理员账户",
    });
    expect((await root.call("GET", "/api/user/self")).json.success).toBe(true);
  });
});

describe("personal settings: role matrix (route × visitor / ordinary / admin / root)", () => {
  type Call = { status: number; json: any };
  const refusedVisitor = (res: Call) => {
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ success: false, message: FORBIDDEN_401 });
  };
  const allowed = (res: Call) => {
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.success, JSON.stringify(res.json)).toBe(true);
  };
  const visitor = { call: (method: string, path: string, body?: unknown) => request(method, path, body) };

  const routes: { name: string; run: (caller: Pick<ApiSession, "call">) => Promise<Call> }[] = [
    { name: "GET /api/user/aff", run: (c) => c.call("GET", "/api/user/aff") },
    { name: "GET /api/user/token", run: (c) => c.call("GET", "/api/user/token") },
    { name: "GET /api/user/models", run: (c) => c.call("GET", "/api/user/models") },
  ];
  for (const route of routes) {
    it(`${route.name}: a visitor is refused; an ordinary user, an admin and root are allowed`, async () => {
      refusedVisitor(await route.run(visitor));
      for (const caller of [await newUser(), await newAdmin(), root]) allowed(await route.run(caller));
    });
  }

  it("POST /api/user/aff_transfer: a visitor is refused; an ordinary user, an admin and root move their own earnings", async () => {
    refusedVisitor(await visitor.call("POST", "/api/user/aff_transfer", { quota: unit }));
    for (const caller of [await newUser(), await newAdmin(), root]) {
      await userWithEarnings(1, caller);
      const before = await self(caller);
      allowed(await caller.call("POST", "/api/user/aff_transfer", { quota: unit }));
      const after = await self(caller);
      expect(after.quota - before.quota).toBe(unit);
      expect(before.aff_quota - after.aff_quota).toBe(unit);
    }
  });

  it("DELETE /api/user/self: a visitor is refused; an ordinary user and an admin delete themselves; root cannot", async () => {
    refusedVisitor(await visitor.call("DELETE", "/api/user/self"));
    for (const caller of [await newUser(), await newAdmin()]) {
      allowed(await caller.call("DELETE", "/api/user/self"));
      expect((await root.call("GET", `/api/user/${caller.userId}`)).json.data.DeletedAt).not.toBeNull();
    }
    expect((await root.call("DELETE", "/api/user/self")).json.success).toBe(false);
  });
});
