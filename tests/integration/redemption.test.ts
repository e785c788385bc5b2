import { createHash } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { baseUrl, fakeIp, loginRoot, newAdmin, newUser, request, type ApiSession } from "../support/api";
import { quotaOf } from "../support/relay";

/** Redemption codes and the wallet's redeem: /api/redemption/* and POST /api/user/topup, on both databases. */
const FORBIDDEN = "无权进行此操作，权限不足";
const KEY = /^[0-9a-f]{32}$/;

let root: ApiSession;
let admin: ApiSession;

beforeAll(async () => {
  root = await loginRoot();
  admin = await newAdmin();
});

type Call = { status: number; json: any };
const allowed = (res: Call) => {
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  expect(res.json.success, JSON.stringify(res.json)).toBe(true);
};
const refusedWith = (res: Call, message: string, status = 200) => {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json).toMatchObject({ success: false, message });
};

async function makeCodes(count = 1, quota = 100000, name = "测试码"): Promise<string[]> {
  const res = await root.call("POST", "/api/redemption/", { name, quota, count });
  allowed(res);
  return res.json.data as string[];
}

/** The id of the code a key belongs to: search by its name and match the hint. */
async function idOf(key: string, name = "测试码"): Promise<number> {
  const rows = (await root.call("GET", `/api/redemption/search?keyword=${encodeURIComponent(name)}`)).json.data as {
    id: number;
    key: string;
  }[];
  const hint = `${key.slice(0, 4)}********${key.slice(-4)}`;
  const row = rows.find((r) => r.key === hint);
  if (!row) throw new Error(`no code with hint ${hint}`);
  return row.id;
}

/** Type-1 log rows written for one code (the log's content names the code's id). */
async function topUpLogsFor(codeId: number): Promise<{ user_id: number; quota: number; content: string }[]> {
  const res = await root.call("GET", "/api/log/?p=1&page_size=100&type=1");
  allowed(res);
  return (res.json.data.items as { user_id: number; quota: number; content: string }[]).filter((l) =>
    l.content.endsWith(`兑换码ID ${codeId}`),
  );
}

describe("redemption codes: role matrix", () => {
  let codeId: number;
  beforeAll(async () => {
    codeId = await idOf((await makeCodes(1))[0]!);
  });
  const routes: { name: string; run: (c: ApiSession) => Promise<Call> }[] = [
    { name: "GET /api/redemption/", run: (c) => c.call("GET", "/api/redemption/?p=0") },
    { name: "GET /api/redemption/search", run: (c) => c.call("GET", "/api/redemption/search?keyword=测试") },
    { name: "GET /api/redemption/:id", run: (c) => c.call("GET", `/api/redemption/${codeId}`) },
    {
      name: "POST /api/redemption/",
      run: (c) => c.call("POST", "/api/redemption/", { name: "矩阵", quota: 1000, count: 1 }),
    },
    {
      name: "PUT /api/redemption/",
      run: (c) => c.call("PUT", "/api/redemption/", { id: codeId, name: "测试码", quota: 100000 }),
    },
    {
      name: "PUT /api/redemption/?status_only=true",
      run: (c) => c.call("PUT", "/api/redemption/?status_only=true", { id: codeId, status: 1 }),
    },
    {
      name: "DELETE /api/redemption/:id",
      run: async (c) => {
        const victim = await idOf((await makeCodes(1, 1000, "待删除"))[0]!, "待删除");
        return c.call("DELETE", `/api/redemption/${victim}/`);
      },
    },
  ];
  for (const route of routes) {
    it(`${route.name}: a visitor gets 401, an ordinary user is refused, an admin and root are allowed`, async () => {
      const visitor = await route.run({
        call: (method: string, path: string, body?: unknown) => request(method, path, body),
      } as ApiSession);
      expect(visitor.status).toBe(401);
      expect(visitor.json.success).toBe(false);
      refusedWith(await route.run(await newUser()), FORBIDDEN);
      allowed(await route.run(admin));
      allowed(await route.run(root));
    });
  }

  it("POST /api/user/topup: a visitor gets 401; an ordinary user, an admin and root may all redeem", async () => {
    const visitor = await request("POST", "/api/user/topup", { key: (await makeCodes(1))[0] });
    expect(visitor.status).toBe(401);
    for (const caller of [await newUser(), admin, root]) {
      const [key] = await makeCodes(1, 1234);
      const res = await caller.call("POST", "/api/user/topup", { key });
      allowed(res);
      expect(res.json).toMatchObject({ message: "兑换成功！", data: 1234 });
    }
  });
});

describe("redemption codes: keys, bounds, search and edits", () => {
  it("POST answers the keys once (32 hex characters each); no list, search or get returns them", async () => {
    const name = `一次${Math.random().toString(36).slice(2, 6)}`;
    const res = await root.call("POST", "/api/redemption/", { name, quota: 5000, count: 5 });
    allowed(res);
    const keys = res.json.data as string[];
    expect(keys).toHaveLength(5);
    for (const key of keys) expect(key).toMatch(KEY);
    expect(new Set(keys).size).toBe(5);
    const found = await root.call("GET", `/api/redemption/search?keyword=${encodeURIComponent(name)}`);
    expect(found.json.data).toHaveLength(5);
    const one = await root.call("GET", `/api/redemption/${found.json.data[0].id}`);
    expect(one.json.data).toMatchObject({ name, quota: 5000, status: 1, used_user_id: 0 });
    const list = await root.call("GET", "/api/redemption/?p=0&page_size=100");
    const everything = JSON.stringify([found.json, one.json, list.json]);
    for (const key of keys) {
      expect(everything).not.toContain(key);
      expect(everything).toContain(`${key.slice(0, 4)}********${key.slice(-4)}`);
    }
  });

  it.runIf(inject("dbKind") === "postgres")(
    "the database holds only each key's SHA-256 and a masked hint",
    async () => {
      const keys = await makeCodes(3, 777, "哈希");
      const db = new pg.Client({ connectionString: inject("databaseUrl") });
      await db.connect();
      try {
        const rows = (await db.query("select * from redemptions where name = '哈希'")).rows as Record<
          string,
          unknown
        >[];
        expect(rows.length).toBeGreaterThanOrEqual(3);
        const dump = JSON.stringify(rows);
        for (const key of keys) {
          expect(dump).not.toContain(key);
          const hash = createHash("sha256").update(key).digest("hex");
          expect(rows.some((r) => r.key_hash === hash)).toBe(true);
        }
        expect(Object.keys(rows[0]!)).not.toContain("key");
      } finally {
        await db.end();
      }
    },
  );

  it("count must be 1 to 100, quota 1 to 10¹⁵, the name 1 to 20 characters", async () => {
    refusedWith(await root.call("POST", "/api/redemption/", { name: "n", quota: 1, count: 0 }), "兑换码个数必须大于0");
    refusedWith(
      await root.call("POST", "/api/redemption/", { name: "n", quota: 1, count: 101 }),
      "一次兑换码批量生成的个数不能大于 100",
    );
    const hundred = await root.call("POST", "/api/redemption/", { name: "百个", quota: 1, count: 100 });
    allowed(hundred);
    expect(new Set(hundred.json.data).size).toBe(100);
    refusedWith(
      await root.call("POST", "/api/redemption/", { name: "n", quota: 0, count: 1 }),
      "兑换码额度必须是 1 到 1000000000000000 之间的整数",
    );
    refusedWith(
      await root.call("POST", "/api/redemption/", { name: "n", quota: -5, count: 1 }),
      "兑换码额度必须是 1 到 1000000000000000 之间的整数",
    );
    refusedWith(
      await root.call("POST", "/api/redemption/", { name: "n", quota: 1e15 + 1, count: 1 }),
      "兑换码额度必须是 1 到 1000000000000000 之间的整数",
    );
    allowed(await root.call("POST", "/api/redemption/", { name: "n", quota: 1e15, count: 1 }));
    expect((await root.call("POST", "/api/redemption/", { name: "n", quota: 1.5, count: 1 })).status).toBe(400);
    expect((await root.call("POST", "/api/redemption/", { name: "n", quota: "lots", count: 1 })).status).toBe(400);
    refusedWith(
      await root.call("POST", "/api/redemption/", { name: "  ", quota: 1, count: 1 }),
      "兑换码名称长度必须在1-20之间",
    );
    refusedWith(
      await root.call("POST", "/api/redemption/", { name: "x".repeat(21), quota: 1, count: 1 }),
      "兑换码名称长度必须在1-20之间",
    );
    allowed(await root.call("POST", "/api/redemption/", { name: "兑".repeat(20), quota: 1, count: 1 }));
  });

  it("search finds a code by its id or by part of its name", async () => {
    const name = `找${Math.random().toString(36).slice(2, 8)}`;
    const [key] = await makeCodes(1, 10, name);
    const id = await idOf(key!, name);
    expect(
      (await root.call("GET", `/api/redemption/search?keyword=${id}`)).json.data.map((r: { id: number }) => r.id),
    ).toContain(id);
    expect(
      (await root.call("GET", `/api/redemption/search?keyword=${encodeURIComponent(name.slice(1))}`)).json.data.map(
        (r: { id: number }) => r.id,
      ),
    ).toEqual([id]);
    refusedWith(await root.call("GET", "/api/redemption/2147483647"), "兑换码不存在");
    expect((await root.call("GET", "/api/redemption/abc")).status).toBe(400);
  });

  it("an unused code can be edited and disabled; a used one can neither be edited nor enabled again", async () => {
    const [key] = await makeCodes(1, 100);
    const id = await idOf(key!);
    const edited = await admin.call("PUT", "/api/redemption/", { id, name: "改名", quota: 4321 });
    allowed(edited);
    expect(edited.json.data).toMatchObject({ id, name: "改名", quota: 4321 });
    allowed(await admin.call("PUT", "/api/redemption/?status_only=true", { id, status: 2 }));
    // docs/product.md, Redemption codes: edit only while unused (a disabled code is not).
    refusedWith(
      await admin.call("PUT", "/api/redemption/", { id, name: "再改", quota: 1 }),
      "只有未使用的兑换码可以编辑",
    );
    allowed(await admin.call("PUT", "/api/redemption/?status_only=true", { id, status: 1 }));
    const user = await newUser();
    allowed(await user.call("POST", "/api/user/topup", { key }));
    refusedWith(
      await admin.call("PUT", "/api/redemption/?status_only=true", { id, status: 1 }),
      "兑换码已被使用，无法修改",
    );
    refusedWith(
      await admin.call("PUT", "/api/redemption/?status_only=true", { id, status: 2 }),
      "兑换码已被使用，无法修改",
    );
    refusedWith(
      await admin.call("PUT", "/api/redemption/", { id, name: "再改", quota: 1 }),
      "兑换码已被使用，无法修改",
    );
    refusedWith(await admin.call("PUT", "/api/redemption/?status_only=true", { id, status: 3 }), "无效的兑换码状态");
    expect((await admin.call("GET", `/api/redemption/${id}`)).json.data).toMatchObject({
      status: 3,
      used_user_id: user.userId,
      quota: 4321,
    });
  });
});

describe("redemption codes: redeeming", () => {
  it("credits the balance once, answers the quota, writes one type-1 log; the same code again is refused", async () => {
    const [key] = await makeCodes(1, 250000);
    const id = await idOf(key!);
    const user = await newUser();
    const before = (await quotaOf(user)).quota;
    const res = await user.call("POST", "/api/user/topup", { key: `  ${key!.toUpperCase()} ` });
    expect(res.json).toEqual({ success: true, message: "兑换成功！", data: 250000 });
    expect((await quotaOf(user)).quota).toBe(before + 250000);
    refusedWith(await user.call("POST", "/api/user/topup", { key }), "该兑换码已被使用");
    refusedWith(await (await newUser()).call("POST", "/api/user/topup", { key }), "该兑换码已被使用");
    expect((await quotaOf(user)).quota).toBe(before + 250000);
    const logs = await topUpLogsFor(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ user_id: user.userId, quota: 250000 });
    const own = (await user.call("GET", "/api/log/self?p=1&page_size=10&type=1")).json.data.items as {
      content: string;
    }[];
    expect(own.filter((l) => l.content.endsWith(`兑换码ID ${id}`))).toHaveLength(1);
  });

  it("a disabled, a deleted, an unknown and an empty code are refused and credit nothing", async () => {
    const [disabledKey, deletedKey] = await makeCodes(2, 1000);
    allowed(await root.call("PUT", "/api/redemption/?status_only=true", { id: await idOf(disabledKey!), status: 2 }));
    allowed(await root.call("DELETE", `/api/redemption/${await idOf(deletedKey!)}`));
    const user = await newUser();
    const before = (await quotaOf(user)).quota;
    refusedWith(await user.call("POST", "/api/user/topup", { key: disabledKey }), "该兑换码已被禁用");
    refusedWith(await user.call("POST", "/api/user/topup", { key: deletedKey }), "无效的兑换码");
    refusedWith(await user.call("POST", "/api/user/topup", { key: "0".repeat(32) }), "无效的兑换码");
    refusedWith(await user.call("POST", "/api/user/topup", { key: "   " }), "请输入兑换码！");
    expect((await user.call("POST", "/api/user/topup", { key: 12345 })).status).toBe(400);
    expect((await quotaOf(user)).quota).toBe(before);
  });

  it("200 redeems of one code at once (20 users, 10 each): exactly one credit, once, with one log", async () => {
    const [key] = await makeCodes(1, 300000);
    const id = await idOf(key!);
    // Ten each: a user's ten fit in the per-user attempt budget, so every one reaches the database.
    const users = await Promise.all(Array.from({ length: 20 }, () => newUser()));
    const before = await Promise.all(users.map(async (u) => (await quotaOf(u)).quota));
    const calls = users.flatMap((u) => Array.from({ length: 10 }, () => u));
    const results = await Promise.all(calls.map((u) => u.call("POST", "/api/user/topup", { key })));
    const winners = results.map((r, i) => (r.json.success ? i : -1)).filter((i) => i >= 0);
    expect(winners).toHaveLength(1);
    const winner = calls[winners[0]!]!;
    for (const [i, r] of results.entries()) {
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      if (i !== winners[0]) expect(r.json.message).toBe("该兑换码已被使用");
    }
    const after = await Promise.all(users.map(async (u) => (await quotaOf(u)).quota));
    for (const [i, u] of users.entries()) expect(after[i]! - before[i]!, u.username).toBe(u === winner ? 300000 : 0);
    const logs = await topUpLogsFor(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.user_id).toBe(winner.userId);
    expect((await root.call("GET", `/api/redemption/${id}`)).json.data).toMatchObject({
      status: 3,
      used_user_id: winner.userId,
    });
  }, 60_000);

  it("one user sending the same code 50 times at once is credited once", async () => {
    const [key] = await makeCodes(1, 70000);
    const id = await idOf(key!);
    const user = await newUser();
    const before = (await quotaOf(user)).quota;
    const results = await Promise.all(Array.from({ length: 50 }, () => user.call("POST", "/api/user/topup", { key })));
    expect(results.filter((r) => r.json.success)).toHaveLength(1);
    // The rest are "already used", or turned away by the attempt budget while the first ran.
    for (const r of results.filter((x) => !x.json.success))
      expect(["该兑换码已被使用", "兑换码错误次数过多，请 10 分钟后再试"]).toContain(r.json.message);
    expect((await quotaOf(user)).quota).toBe(before + 70000);
    expect(await topUpLogsFor(id)).toHaveLength(1);
  }, 60_000);
});

describe("redemption codes: guessing is limited", () => {
  it("after 10 unknown keys a user is refused (429), even with a good code, which stays unspent", async () => {
    const user = await newUser();
    for (let i = 0; i < 10; i++)
      refusedWith(await user.call("POST", "/api/user/topup", { key: `${i}`.padStart(32, "f") }), "无效的兑换码");
    const [key] = await makeCodes(1, 1000);
    refusedWith(await user.call("POST", "/api/user/topup", { key }), "兑换码错误次数过多，请 10 分钟后再试", 429);
    expect((await root.call("GET", `/api/redemption/${await idOf(key!)}`)).json.data.status).toBe(1);
    // Another user is not affected.
    allowed(await (await newUser()).call("POST", "/api/user/topup", { key }));
  });

  it("good and used codes do not count: 12 redeems and 12 repeats in a row all get their answer", async () => {
    const user = await newUser();
    for (const key of await makeCodes(12, 10)) {
      allowed(await user.call("POST", "/api/user/topup", { key }));
      refusedWith(await user.call("POST", "/api/user/topup", { key }), "该兑换码已被使用");
    }
  });

  it("one account's 60 wrong guesses limit that account; another account at the same address redeems a valid code at once", async () => {
    const from = { "X-Forwarded-For": fakeIp() };
    const guesser = await newUser();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await guesser.call("POST", "/api/user/topup", { key: `${i}`.padStart(32, "d") }, from)).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    const [key] = await makeCodes(1, 1000);
    allowed(await (await newUser()).call("POST", "/api/user/topup", { key }, from));
  });

  it("an address whose budget guessing accounts used up still serves accounts that did not guess wrong (by /api and by the console form); accounts that did are held to it", async () => {
    const address = fakeIp();
    const from = { "X-Forwarded-For": address };
    // Three accounts, ten wrong guesses each: the address's 30 are spent.
    for (let n = 0; n < 3; n++) {
      const guesser = await newUser();
      for (let i = 0; i < 10; i++)
        refusedWith(await guesser.call("POST", "/api/user/topup", { key: "e".repeat(32) }, from), "无效的兑换码");
    }
    const [apiKey, formKey] = await makeCodes(2, 1000);
    allowed(await (await newUser()).call("POST", "/api/user/topup", { key: apiKey }, from));
    const viaForm = await newUser();
    const before = (await quotaOf(viaForm)).quota;
    const res = await fetch(`${baseUrl()}/topup`, {
      method: "POST",
      headers: { Cookie: viaForm.cookie, "Content-Type": "application/x-www-form-urlencoded", ...from },
      body: new URLSearchParams({ intent: "redeem", key: formKey! }).toString(),
      redirect: "manual",
    });
    expect([302, 303]).toContain(res.status);
    expect((await quotaOf(viaForm)).quota).toBe(before + 1000);
    // Another account guessing from there gets its first few wrong guesses answered, then the
    // address's spent budget holds it, long before its own ten.
    const late = await newUser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await late.call("POST", "/api/user/topup", { key: "c".repeat(32) }, from)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    // Elsewhere that account is held only to its own budget.
    refusedWith(await late.call("POST", "/api/user/topup", { key: "c".repeat(32) }), "无效的兑换码");
  });

  it("answers that are not wrong guesses never count: 40 redeems of used and disabled codes, then a fresh code redeems", async () => {
    const [used, disabled, fresh] = await makeCodes(3, 10);
    allowed(await (await newUser()).call("POST", "/api/user/topup", { key: used }));
    allowed(await root.call("PUT", "/api/redemption/?status_only=true", { id: await idOf(disabled!), status: 2 }));
    const user = await newUser();
    const from = { "X-Forwarded-For": fakeIp() };
    for (let i = 0; i < 20; i++) {
      refusedWith(await user.call("POST", "/api/user/topup", { key: used }, from), "该兑换码已被使用");
      refusedWith(await user.call("POST", "/api/user/topup", { key: disabled }, from), "该兑换码已被禁用");
    }
    allowed(await user.call("POST", "/api/user/topup", { key: fresh }, from));
  });
});
