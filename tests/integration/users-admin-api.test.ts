import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, newAdmin, newUser, request, uniqueName, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/** Users: the admin user-management /api routes and their role rules, on both databases. */
const FORBIDDEN = "无权进行此操作，权限不足";
const PEER = "无权更新同权限等级或更高权限等级的用户信息";
const DEREGISTERED = "用户已注销，无法再进行操作";

let root: ApiSession;
let admin: ApiSession;
let rootId: number;

beforeAll(async () => {
  root = await loginRoot();
  rootId = root.userId;
  admin = await newAdmin();
});

type Call = { status: number; json: any };
const refusedWith = (res: Call, message: string) => {
  expect(res.status, JSON.stringify(res.json)).toBeLessThan(500);
  expect(res.json).toMatchObject({ success: false, message });
};
const allowed = (res: Call) => {
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  expect(res.json.success, JSON.stringify(res.json)).toBe(true);
};

/** Every route of the slice, each against a fresh ordinary user as its target. */
const routes: { name: string; run: (caller: ApiSession, target: ApiSession) => Promise<Call> }[] = [
  { name: "GET /api/user/", run: (c) => c.call("GET", "/api/user/?p=0") },
  { name: "GET /api/user/search", run: (c, t) => c.call("GET", `/api/user/search?keyword=${t.username}`) },
  { name: "GET /api/user/:id", run: (c, t) => c.call("GET", `/api/user/${t.userId}`) },
  {
    name: "POST /api/user/",
    run: (c) =>
      c.call("POST", "/api/user/", { username: uniqueName("a"), password: "password123", display_name: "新人" }),
  },
  { name: "PUT /api/user/", run: (c, t) => c.call("PUT", "/api/user/", { id: t.userId, display_name: "改过" }) },
  { name: "DELETE /api/user/:id", run: (c, t) => c.call("DELETE", `/api/user/${t.userId}`) },
  {
    name: "POST /api/user/manage",
    run: (c, t) => c.call("POST", "/api/user/manage", { id: t.userId, action: "disable" }),
  },
];

describe("users: role matrix (route × ordinary / admin / root)", () => {
  for (const route of routes) {
    it(`${route.name}: an ordinary user is refused, an admin and root are allowed`, async () => {
      const ordinary = await newUser();
      refusedWith(await route.run(ordinary, await newUser()), FORBIDDEN);
      allowed(await route.run(admin, await newUser()));
      allowed(await route.run(root, await newUser()));
    });
  }

  it("GET /api/user/groups is public: anonymous, ordinary, admin and root all get the usable groups", async () => {
    const anonymous = await request("GET", "/api/user/groups");
    allowed(anonymous);
    expect(anonymous.json.data).toMatchObject({ default: "默认分组" });
    for (const caller of [await newUser(), admin, root])
      expect((await caller.call("GET", "/api/user/groups")).json).toEqual(anonymous.json);
  });

  it("without a session or token every admin route answers 401 in the envelope", async () => {
    for (const [method, path] of [
      ["GET", "/api/user/"],
      ["GET", "/api/user/search"],
      ["GET", "/api/user/1"],
      ["POST", "/api/user/"],
      ["PUT", "/api/user/"],
      ["DELETE", "/api/user/2"],
    ] as const) {
      const res = await request(method, path, method === "GET" || method === "DELETE" ? undefined : {});
      expect(res.status, path).toBe(401);
      expect(res.json.success, path).toBe(false);
    }
  });
});

describe("users: who may act on whom", () => {
  it("an admin cannot view, edit, delete or manage another admin or root; root can act on an admin", async () => {
    const otherAdmin = await newAdmin();
    for (const target of [otherAdmin.userId, rootId]) {
      refusedWith(await admin.call("GET", `/api/user/${target}`), "无权获取同级或更高等级用户的信息");
      refusedWith(await admin.call("DELETE", `/api/user/${target}`), PEER);
      refusedWith(await admin.call("POST", "/api/user/manage", { id: target, action: "disable" }), PEER);
    }
    refusedWith(await admin.call("PUT", "/api/user/", { id: otherAdmin.userId, display_name: "x" }), PEER);
    allowed(await root.call("GET", `/api/user/${otherAdmin.userId}`));
    allowed(await root.call("PUT", "/api/user/", { id: otherAdmin.userId, display_name: "根改" }));
    expect((await root.call("GET", `/api/user/${otherAdmin.userId}`)).json.data.display_name).toBe("根改");
  });

  it("nobody else edits root and nobody deletes it; root edits itself (its quota), never its role", async () => {
    refusedWith(await admin.call("PUT", "/api/user/", { id: rootId, quota_delta: 1 }), "无法编辑超级管理员用户");
    for (const caller of [admin, root])
      expect((await caller.call("DELETE", `/api/user/${rootId}`)).json.success).toBe(false);
    refusedWith(await root.call("DELETE", `/api/user/${rootId}`), "无法删除超级管理员用户");
    const before = (await root.call("GET", "/api/user/self")).json.data.quota as number;
    allowed(await root.call("PUT", "/api/user/", { id: rootId, quota_delta: 7, role: 1 }));
    const after = (await root.call("GET", "/api/user/self")).json.data;
    expect(after.quota).toBe(before + 7);
    expect(after.role).toBe(100);
  });

  it("only root promotes and demotes; an admin cannot create an admin, root can", async () => {
    const target = await newUser();
    refusedWith(
      await admin.call("POST", "/api/user/manage", { id: target.userId, action: "promote" }),
      "普通管理员用户无法提升其他用户为管理员",
    );
    allowed(await root.call("POST", "/api/user/manage", { id: target.userId, action: "promote" }));
    refusedWith(await admin.call("POST", "/api/user/manage", { id: target.userId, action: "demote" }), PEER);
    allowed(await root.call("POST", "/api/user/manage", { id: target.userId, action: "demote" }));
    // PUT does not change roles: a role in the body is ignored.
    allowed(await admin.call("PUT", "/api/user/", { id: target.userId, role: 100 }));
    expect((await root.call("GET", `/api/user/${target.userId}`)).json.data.role).toBe(1);

    refusedWith(
      await admin.call("POST", "/api/user/", { username: uniqueName("a"), password: "password123", role: 10 }),
      "无法创建权限大于等于自己的用户",
    );
    const name = uniqueName("r");
    allowed(await root.call("POST", "/api/user/", { username: name, password: "password123", role: 10 }));
    const found = (await root.call("GET", `/api/user/search?keyword=${name}`)).json.data;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ username: name, role: 10, display_name: name });
  });

  it("a deregistered user is listed with DeletedAt and takes no operation (已注销)", async () => {
    const target = await newUser();
    allowed(await admin.call("DELETE", `/api/user/${target.userId}`));
    const shown = (await admin.call("GET", `/api/user/${target.userId}`)).json.data;
    expect(shown.DeletedAt).not.toBeNull();
    const listed = (await admin.call("GET", "/api/user/?p=0&page_size=100")).json.data.find(
      (u: { id: number }) => u.id === target.userId,
    );
    expect(listed.DeletedAt).not.toBeNull();
    refusedWith(await admin.call("PUT", "/api/user/", { id: target.userId, display_name: "x" }), DEREGISTERED);
    refusedWith(await admin.call("PUT", "/api/user/", { id: target.userId, quota_delta: 100 }), DEREGISTERED);
    refusedWith(await admin.call("DELETE", `/api/user/${target.userId}`), DEREGISTERED);
    for (const action of ["enable", "disable", "promote", "demote", "delete"]) {
      refusedWith(await root.call("POST", "/api/user/manage", { id: target.userId, action }), DEREGISTERED);
    }
    // The account is gone for its owner too.
    expect((await target.call("GET", "/api/user/self")).json.success).toBe(false);
  });
});

describe("users: list, search and fields", () => {
  it("lists newest first with a 0-based p and a page size; search matches id, name and group", async () => {
    const a = await newUser();
    const b = await newUser();
    const first = await admin.call("GET", "/api/user/?p=0&page_size=1");
    expect(first.json.data).toHaveLength(1);
    expect(first.json.total).toBeGreaterThanOrEqual(2);
    const two = (await admin.call("GET", "/api/user/?p=0&page_size=2")).json.data.map((u: { id: number }) => u.id);
    expect(two[0]).toBeGreaterThan(two[1]);
    expect((await admin.call("GET", "/api/user/?p=1&page_size=1")).json.data[0].id).toBe(two[1]);
    const byId = (await admin.call("GET", `/api/user/search?keyword=${b.userId}`)).json.data;
    expect(byId[0].id).toBe(b.userId);
    allowed(await root.call("PUT", "/api/user/", { id: a.userId, group: "vip" }));
    const vip = (await admin.call("GET", `/api/user/search?keyword=${a.username}&group=vip`)).json.data;
    expect(vip.map((u: { id: number }) => u.id)).toEqual([a.userId]);
    expect((await admin.call("GET", `/api/user/search?keyword=${b.username}&group=vip`)).json.data).toEqual([]);
    const paged = await admin.call("GET", `/api/user/search?keyword=u&p=1&page_size=1`);
    const firstOfSearch = await admin.call("GET", `/api/user/search?keyword=u&p=0&page_size=1`);
    expect(paged.json.data).toHaveLength(1);
    expect(paged.json.data[0].id).toBeLessThan(firstOfSearch.json.data[0].id);
  });

  it("no response carries a password hash or an access token, not even root's to an admin", async () => {
    const token = (await root.call("GET", "/api/user/token")).json.data as string;
    expect(token.length).toBeGreaterThan(10);
    const user = await newUser();
    const responses = [
      await admin.call("GET", "/api/user/?p=0&page_size=100"),
      await admin.call("GET", "/api/user/search?keyword=root"),
      await root.call("GET", `/api/user/${admin.userId}`),
      await admin.call("GET", `/api/user/${user.userId}`),
      await admin.call("PUT", "/api/user/", { id: user.userId, display_name: "看不见" }),
    ];
    // Other files' users push root (id 1) off the first page of a shared server: the search finds it.
    const listedRoot = responses[1]!.json.data.find((u: { id: number }) => u.id === rootId);
    expect(listedRoot).toMatchObject({ username: "root", password: "", access_token: null });
    for (const res of responses) {
      allowed(res);
      const text = JSON.stringify(res.json);
      expect(text).not.toContain(token);
      expect(text).not.toMatch(/\$2[aby]\$/); // bcrypt
      expect(text).not.toContain("password_hash");
      expect(text).not.toContain("access_token_hash");
    }
  });

  it("edits display name, email, group and password; refuses short passwords, long names and unknown groups", async () => {
    const user = await newUser();
    const res = await admin.call("PUT", "/api/user/", {
      id: user.userId,
      display_name: "小明",
      email: "a@example.com",
      group: "vip",
      password: "newpassword1",
    });
    allowed(res);
    expect(res.json.data).toMatchObject({ display_name: "小明", email: "a@example.com", group: "vip" });
    // The new password signs in; the old sessions of the user are ended.
    expect((await user.call("GET", "/api/user/self")).json.success).toBe(false);
    const signedIn = await request("POST", "/api/user/login", { username: user.username, password: "newpassword1" });
    expect(signedIn.json.success).toBe(true);
    // "" keeps the password.
    allowed(await admin.call("PUT", "/api/user/", { id: user.userId, password: "" }));
    expect(
      (await request("POST", "/api/user/login", { username: user.username, password: "newpassword1" })).json.success,
    ).toBe(true);

    const short = await admin.call("PUT", "/api/user/", { id: user.userId, password: "short" });
    expect(short.status).toBe(400);
    expect(short.json.message).toContain("密码长度不得小于 8 位！");
    const addShort = await admin.call("POST", "/api/user/", { username: uniqueName(), password: "1234567" });
    expect(addShort.json.message).toContain("密码长度不得小于 8 位！");
    const longName = await admin.call("PUT", "/api/user/", { id: user.userId, display_name: "x".repeat(21) });
    expect(longName.json.message).toContain("显示名称长度不得超过 20 位");
    refusedWith(await admin.call("PUT", "/api/user/", { id: user.userId, group: "no-such-group" }), "分组不存在");
    const taken = await admin.call("POST", "/api/user/", { username: user.username, password: "password123" });
    refusedWith(taken, "用户名已存在，或已注销");
    refusedWith(await admin.call("GET", "/api/user/2147483647"), "用户不存在");
    expect((await admin.call("GET", "/api/user/abc")).status).toBe(400);
  });
});

describe("users: quota edits", () => {
  it("quota_delta adds, accepts negatives and never drives quota below zero; each change is a management log", async () => {
    const user = await newUser();
    allowed(await admin.call("PUT", "/api/user/", { id: user.userId, quota: 1000 }));
    expect((await admin.call("PUT", "/api/user/", { id: user.userId, quota_delta: 500 })).json.data.quota).toBe(1500);
    expect((await admin.call("PUT", "/api/user/", { id: user.userId, quota_delta: -200 })).json.data.quota).toBe(1300);
    expect((await admin.call("PUT", "/api/user/", { id: user.userId, quota_delta: -999999 })).json.data.quota).toBe(0);
    expect((await quotaOf(user)).quota).toBe(0);
    const negative = await admin.call("PUT", "/api/user/", { id: user.userId, quota: -5 });
    expect(negative.json.success).toBe(false);
    expect((await admin.call("PUT", "/api/user/", { id: user.userId, quota: 1, quota_delta: 1 })).json.success).toBe(
      false,
    );

    const logs = (await root.call("GET", `/api/log/?p=1&page_size=100&type=3&username=${user.username}`)).json.data
      .items;
    expect(logs.map((l: { content: string }) => l.content)).toEqual([
      "管理员将用户额度从 1300 修改为 0",
      "管理员将用户额度从 1500 修改为 1300",
      "管理员将用户额度从 1000 修改为 1500",
      "管理员将用户额度从 0 修改为 1000",
    ]);
  });

  it("concurrent quota edits are exact: 40 deltas at once land on the sum", async () => {
    const user = await newUser();
    allowed(await admin.call("PUT", "/api/user/", { id: user.userId, quota: 10_000 }));
    const deltas = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 300 : -100));
    const results = await Promise.all(
      deltas.map((d, i) => (i % 2 ? admin : root).call("PUT", "/api/user/", { id: user.userId, quota_delta: d })),
    );
    for (const res of results) allowed(res);
    expect((await quotaOf(user)).quota).toBe(10_000 + 20 * 300 - 20 * 100);
    const logs = (await root.call("GET", `/api/log/?p=1&page_size=100&type=3&username=${user.username}`)).json.data;
    expect(logs.total).toBe(41);
  });

  it("concurrent withdrawals never go below zero", async () => {
    const user = await newUser();
    allowed(await admin.call("PUT", "/api/user/", { id: user.userId, quota: 1000 }));
    const results = await Promise.all(
      Array.from({ length: 10 }, () => admin.call("PUT", "/api/user/", { id: user.userId, quota_delta: -300 })),
    );
    for (const res of results) allowed(res);
    expect((await quotaOf(user)).quota).toBe(0);
  });
});

describe("users: a balance edit reaches the relay's leases", () => {
  let upstream: MockUpstream;
  afterAll(async () => {
    await upstream?.close();
  });

  it("setting quota to 0 right after a call stops the next call (the node's leased slice is trimmed)", async () => {
    upstream = await startOpenAiMock();
    const model = uniqueModel("useradm");
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: upstream.url, models: model });
    const payer = await userWithToken(5_000_000);
    await payer.client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
    allowed(await admin.call("PUT", "/api/user/", { id: payer.user.userId, quota: 0 }));
    const refused = await payer.client.chat.completions
      .create({ model, messages: [{ role: "user", content: "again" }] })
      .then(
        () => "delivered",
        (error: { status?: number }) => error.status,
      );
    expect(refused).toBe(403);
    expect((await quotaOf(payer.user)).quota).toBe(0);
  });
});
