import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { baseUrl, fakeIp, loginRoot, newAdmin, newUser, request, type ApiSession } from "../support/api";
import { startTestRedis } from "../support/redis-server";
import { startServer } from "../support/server";
import { call, eventually, signIn, stoppedAfterAll } from "../support/standalone";

/**
 * The admin settings tabs: /api/option/ and rest_model_ratio for every role, and the
 * console cards of /setting?tab=operation|system|other (which keys a card may write, secrets
 * write-only, validation before anything is stored). Every option changed here is put back.
 */
const FORBIDDEN = "无权进行此操作，权限不足";

let root: ApiSession;
let admin: ApiSession;
let ordinary: ApiSession;
const saved = new Map<string, string>();

async function optionsOf(session: ApiSession): Promise<Record<string, string>> {
  const res = await session.call("GET", "/api/option/");
  expect(res.json.success, JSON.stringify(res.json)).toBe(true);
  return Object.fromEntries((res.json.data as { key: string; value: string }[]).map((o) => [o.key, o.value]));
}

/** Remembers an option's value before a test changes it; afterAll writes them back. */
async function remember(...keys: string[]) {
  const now = await optionsOf(root);
  for (const key of keys) if (!saved.has(key)) saved.set(key, now[key] ?? "");
}

/** A console form post as a browser without JavaScript sends it. */
async function postCard(session: ApiSession, tab: string, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  const res = await fetch(`${baseUrl()}/setting?tab=${tab}`, {
    method: "POST",
    headers: {
      Cookie: session.cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": fakeIp(),
    },
    body,
    redirect: "manual",
  });
  return {
    status: res.status,
    location: res.headers.get("location"),
    setCookie: (res.headers.get("set-cookie") ?? "").split(";")[0]!,
    html: await res.text(),
  };
}

async function page(session: ApiSession, path: string) {
  const res = await fetch(baseUrl() + path, {
    headers: { Cookie: session.cookie, "X-Forwarded-For": fakeIp() },
    redirect: "manual",
  });
  return { status: res.status, html: await res.text() };
}

beforeAll(async () => {
  root = await loginRoot();
  admin = await newAdmin();
  ordinary = await newUser();
  await remember(
    "ModelRatio",
    "ModelPrice",
    "RetryTimes",
    "QuotaForNewUser",
    "SystemName",
    "GroupRatio",
    "MinTopUp",
    "ServerAddress",
    "PayAddress",
    "Price",
    "Notice",
    "PasswordLoginEnabled",
    "DrawingEnabled",
    "MjNotifyEnabled",
  );
});

afterAll(async () => {
  // GET shows the effective ServerAddress; the default it shows for "unset" is put back as unset.
  for (const [key, value] of saved)
    await root.call("PUT", "/api/option/", {
      key,
      value: key === "ServerAddress" && /^http:\/\/localhost:\d+$/.test(value) ? "" : value,
    });
  await root.call("PUT", "/api/option/", { key: "WorkerValidKey", value: "" });
});

describe("role matrix: /api/option/ and /api/option/rest_model_ratio", () => {
  const routes: { name: string; run: (s?: ApiSession) => Promise<{ status: number; json: any }> }[] = [
    { name: "GET /api/option/", run: (s) => (s ? s.call("GET", "/api/option/") : request("GET", "/api/option/")) },
    {
      name: "PUT /api/option/",
      run: (s) =>
        s
          ? s.call("PUT", "/api/option/", { key: "RetryTimes", value: "2" })
          : request("PUT", "/api/option/", { key: "RetryTimes", value: "2" }),
    },
    {
      name: "POST /api/option/rest_model_ratio",
      run: (s) =>
        s ? s.call("POST", "/api/option/rest_model_ratio") : request("POST", "/api/option/rest_model_ratio"),
    },
  ];

  for (const route of routes) {
    it(`${route.name}: visitor, ordinary and admin are refused; root is allowed`, async () => {
      await remember("RetryTimes", "ModelRatio");
      const visitor = await route.run();
      expect(visitor.status).toBeLessThan(500);
      expect(visitor.json.success).toBe(false);
      for (const who of [ordinary, admin]) {
        const res = await route.run(who);
        expect(res.status).toBeLessThan(500);
        expect(res.json).toMatchObject({ success: false, message: FORBIDDEN });
      }
      const res = await route.run(root);
      expect(res.status).toBe(200);
      expect(res.json.success, JSON.stringify(res.json)).toBe(true);
    });
  }

  it("rest_model_ratio puts ModelRatio back to the defaults and leaves ModelPrice alone", async () => {
    await remember("ModelRatio", "ModelPrice");
    const ratio = JSON.parse((await optionsOf(root)).ModelRatio!) as Record<string, number>;
    expect(ratio["gpt-4"]).toBeTypeOf("number");
    await root.call("PUT", "/api/option/", { key: "ModelRatio", value: JSON.stringify({ "only-model": 9 }) });
    await root.call("PUT", "/api/option/", { key: "ModelPrice", value: JSON.stringify({ "priced-model": 0.5 }) });
    expect((await root.call("POST", "/api/option/rest_model_ratio")).json.success).toBe(true);
    const after = await optionsOf(root);
    const reset = JSON.parse(after.ModelRatio!) as Record<string, number>;
    expect(reset["only-model"]).toBeUndefined();
    expect(reset["gpt-4"]).toBe(15);
    expect(JSON.parse(after.ModelPrice!)).toEqual({ "priced-model": 0.5 });

    // The console's button (ratio card) does the same.
    await root.call("PUT", "/api/option/", { key: "ModelRatio", value: JSON.stringify({ "only-model": 9 }) });
    expect((await postCard(root, "operation", { intent: "reset-model-ratio" })).status).toBe(302);
    expect(JSON.parse((await optionsOf(root)).ModelRatio!)["gpt-4"]).toBe(15);
    expect((await postCard(ordinary, "operation", { intent: "reset-model-ratio" })).status).toBe(403);
  });
});

describe("/setting admin tabs", () => {
  it("ordinary users and admins get 403 on the three admin tabs, and see only 个人设置", async () => {
    for (const who of [ordinary, admin]) {
      for (const tab of ["operation", "system", "other"]) {
        expect((await page(who, `/setting?tab=${tab}`)).status).toBe(403);
        expect((await postCard(who, tab, { intent: "general", RetryTimes: "7" })).status).toBe(403);
      }
      const personal = await page(who, "/setting");
      expect(personal.status).toBe(200);
      expect(personal.html).toContain("个人设置");
      expect(personal.html).not.toContain("运营设置");
    }
    expect((await optionsOf(root)).RetryTimes).not.toBe("7");
  });

  it("a card saves only its own keys: foreign field names in the post are ignored", async () => {
    await remember("RetryTimes", "QuotaForNewUser", "SystemName", "DrawingEnabled");
    const before = await optionsOf(root);
    const next = before.RetryTimes === "4" ? "5" : "4";
    const res = await postCard(root, "operation", {
      intent: "general",
      TopUpLink: before.TopUpLink ?? "",
      ChatLink: before.ChatLink ?? "",
      ChatLink2: before.ChatLink2 ?? "",
      QuotaPerUnit: before.QuotaPerUnit!,
      RetryTimes: next,
      DisplayInCurrencyEnabled: before.DisplayInCurrencyEnabled === "true" ? "true" : [],
      DisplayTokenStatEnabled: before.DisplayTokenStatEnabled === "true" ? "true" : [],
      DefaultCollapseSidebar: before.DefaultCollapseSidebar === "true" ? "true" : [],
      QuotaForNewUser: "987654",
      SystemName: "hijacked",
      DrawingEnabled: "false",
    });
    expect(res.status).toBe(302);
    const after = await optionsOf(root);
    expect(after.RetryTimes).toBe(next);
    expect(after.QuotaForNewUser).toBe(before.QuotaForNewUser);
    expect(after.SystemName).toBe(before.SystemName);
    expect(after.DrawingEnabled).toBe(before.DrawingEnabled);
  });

  it("an unchecked box means false; resubmitting the same values answers 你似乎并没有修改什么", async () => {
    await remember("DrawingEnabled", "MjNotifyEnabled");
    const fields = {
      intent: "drawing",
      DrawingEnabled: [] as string[],
      MjNotifyEnabled: "true",
      MjForwardUrlEnabled: "true",
      MjActionCheckSuccessEnabled: "true",
    };
    expect((await postCard(root, "operation", fields)).status).toBe(302);
    const after = await optionsOf(root);
    expect(after.DrawingEnabled).toBe("false");
    expect(after.MjNotifyEnabled).toBe("true");
    expect(after.MjModeClearEnabled).toBe("false");
    const again = await postCard(root, "operation", fields);
    expect(again.status).toBe(200);
    expect(again.html).toContain("你似乎并没有修改什么");
  });

  it("invalid JSON and out-of-bounds numbers are refused with the product's message and nothing is stored", async () => {
    await remember("ModelRatio", "GroupRatio", "MinTopUp", "Price");
    const before = await optionsOf(root);
    const ratio = await postCard(root, "operation", {
      intent: "ratio",
      ModelPrice: before.ModelPrice!,
      ModelRatio: before.ModelRatio!,
      CompletionRatio: before.CompletionRatio!,
      GroupRatio: '{"default": 2, "vip": 1',
      UserUsableGroups: before.UserUsableGroups!,
    });
    expect(ratio.status).toBe(400);
    expect(ratio.html).toContain("不是合法的 JSON 字符串");
    // What was typed stays in the box to be fixed.
    expect(ratio.html).toContain("{&quot;default&quot;: 2, &quot;vip&quot;: 1");
    expect((await optionsOf(root)).GroupRatio).toBe(before.GroupRatio);

    const api = await root.call("PUT", "/api/option/", { key: "GroupRatio", value: "{nope" });
    expect(api.json.success).toBe(false);
    const minTopUp = await root.call("PUT", "/api/option/", { key: "MinTopUp", value: "0" });
    expect(minTopUp.json.success).toBe(false);
    expect((await root.call("PUT", "/api/option/", { key: "Price", value: "0" })).json.success).toBe(true);
    const after = await optionsOf(root);
    expect(after.GroupRatio).toBe(before.GroupRatio);
    expect(after.MinTopUp).toBe(before.MinTopUp);
  });

  it("payment needs a server address first; addresses lose their trailing slash", async () => {
    await remember("ServerAddress", "PayAddress", "Price", "MinTopUp");
    await root.call("PUT", "/api/option/", { key: "ServerAddress", value: "" });
    const payment = {
      intent: "payment",
      PayAddress: "https://pay.example.com/",
      EpayId: "",
      EpayKey: "",
      CustomCallbackAddress: "",
      Price: "7.3",
      MinTopUp: "1",
      TopupGroupRatio: '{"default":1,"vip":1,"svip":1}',
    };
    const refused = await postCard(root, "system", payment);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("请先填写服务器地址");
    expect(
      (await postCard(root, "system", { intent: "general", ServerAddress: "https://gw.example.com/" })).status,
    ).toBe(302);
    expect((await postCard(root, "system", payment)).status).toBe(302);
    const after = await optionsOf(root);
    expect(after.ServerAddress).toBe("https://gw.example.com");
    expect(after.PayAddress).toBe("https://pay.example.com");
    const badGroups = await postCard(root, "system", { ...payment, TopupGroupRatio: "{" });
    expect(badGroups.html).toContain("充值分组倍率不是合法的 JSON 字符串");
  });

  it("secrets are written only when non-empty and never appear in the page or in GET /api/option/", async () => {
    const secret = `wk-${Math.random().toString(36).slice(2)}`;
    expect((await postCard(root, "system", { intent: "worker", WorkerUrl: "", WorkerValidKey: secret })).status).toBe(
      302,
    );
    const html = (await page(root, "/setting?tab=system")).html;
    expect(html).not.toContain(secret);
    expect(html).toContain("已设置");
    const api = await root.call("GET", "/api/option/");
    expect(JSON.stringify(api.json)).not.toContain(secret);
    expect((api.json.data as { key: string }[]).some((o) => /(Token|Secret|Key)$/.test(o.key))).toBe(false);
    // An empty box keeps the stored secret: the card reports nothing changed.
    const again = await postCard(root, "system", { intent: "worker", WorkerUrl: "", WorkerValidKey: "" });
    expect(again.html).toContain("你似乎并没有修改什么");
  });

  it("switching password login off asks for a confirmation first", async () => {
    await remember("PasswordLoginEnabled");
    const toggles = { intent: "login", PasswordRegisterEnabled: "true", RegisterEnabled: "true" };
    const asked = await postCard(root, "system", toggles);
    expect(asked.status).toBe(400);
    expect(asked.html).toContain("确定要取消密码登录功能吗");
    expect((await optionsOf(root)).PasswordLoginEnabled).toBe("true");
    expect((await postCard(root, "system", { ...toggles, confirm: "PasswordLoginEnabled" })).status).toBe(302);
    expect((await optionsOf(root)).PasswordLoginEnabled).toBe("false");
    await root.call("PUT", "/api/option/", { key: "PasswordLoginEnabled", value: "true" });
  });

  it("a login method needs its prerequisite (option precondition) and nothing is stored", async () => {
    await remember("WeChatAuthEnabled", "WeChatServerAddress", "PasswordRegisterEnabled", "RegisterEnabled");
    await root.call("PUT", "/api/option/", { key: "WeChatAuthEnabled", value: "false" });
    await root.call("PUT", "/api/option/", { key: "WeChatServerAddress", value: "" });
    const before = await optionsOf(root);
    const res = await postCard(root, "system", {
      intent: "login",
      PasswordLoginEnabled: "true",
      PasswordRegisterEnabled: before.PasswordRegisterEnabled === "true" ? "false" : "true",
      RegisterEnabled: "true",
      WeChatAuthEnabled: "true",
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain("无法启用微信登录");
    const after = await optionsOf(root);
    expect(after.WeChatAuthEnabled).toBe("false");
    // The refused switch stopped the whole card: the other toggle was not stored either.
    expect(after.PasswordRegisterEnabled).toBe(before.PasswordRegisterEnabled);
  });

  it("the other tab: the notice and site name reach the home page with their messages", async () => {
    await remember("Notice", "SystemName");
    const notice = `公告-${Math.random().toString(36).slice(2, 8)} <script>alert(1)</script>`;
    const saved = await postCard(root, "other", { intent: "notice", Notice: notice });
    expect(saved.status).toBe(302);
    const name = `站点${Math.random().toString(36).slice(2, 6)}`;
    expect((await postCard(root, "other", { intent: "system-name", SystemName: name })).status).toBe(302);
    const home = await fetch(baseUrl() + "/").then((r) => r.text());
    expect(home).toContain(notice.split(" ")[0]);
    expect(home).not.toContain("<script>alert(1)</script>");
    expect(home).toContain(name);
    expect((await request("GET", "/api/notice")).json.data).toBe(notice);
    await remember("Footer");
    expect(
      (
        await postCard(root, "other", {
          intent: "footer",
          Footer: '<a href="https://beian.example/">备案号</a><script>evil()</script><img src=x onerror="evil()">',
        })
      ).status,
    ).toBe(302);
    const withFooter = await fetch(baseUrl() + "/about").then((r) => r.text());
    expect(withFooter).toContain('<a href="https://beian.example/">备案号</a>');
    expect(withFooter).not.toContain("<script>evil()");
    expect(withFooter).not.toContain('onerror="evil()"');
    const tooLong = await postCard(root, "other", { intent: "system-name", SystemName: "x".repeat(5000) });
    expect(tooLong.html).toContain("系统名称更新失败");
  });

  it("clearing logs needs a time; with one it reports how many went", async () => {
    const missing = await postCard(root, "operation", { intent: "clear-logs", before: "" });
    expect(missing.html).toContain("请选择日志记录时间");
    const cleared = await postCard(root, "operation", { intent: "clear-logs", before: "2001-01-01T00:00" });
    expect(cleared.status).toBe(302);
    const next = await fetch(baseUrl() + cleared.location!, {
      headers: { Cookie: `${root.cookie}; ${cleared.setCookie}` },
    });
    expect(await next.text()).toContain("0 条日志已清理！");
  });
});

describe("two nodes sharing PostgreSQL and Redis", () => {
  const kind = inject("dbKind");
  const { servers, redises } = stoppedAfterAll();

  it.skipIf(kind !== "postgres")(
    "an option saved through one node's card is in effect on the other at once",
    async () => {
      const redis = await startTestRedis();
      redises.push(redis);
      const first = await startServer({ kind, env: { REDIS_URL: redis.url(3) }, worker: false });
      servers.push(first);
      const second = await startServer({
        kind,
        env: { REDIS_URL: redis.url(3) },
        worker: false,
        storage: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
      });
      servers.unshift(second);
      const node = await signIn(first.baseUrl);
      const name = `节点${Math.random().toString(36).slice(2, 6)}`;
      const res = await fetch(`${first.baseUrl}/setting?tab=other`, {
        method: "POST",
        headers: { Cookie: node.auth.Cookie!, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "system-name", SystemName: name }),
        redirect: "manual",
      });
      expect(res.status).toBe(302);
      expect(
        await eventually(
          async () => (await call(second.baseUrl, "/api/status")).json?.data?.system_name === name,
          2_000,
          100,
        ),
      ).toBe(true);
    },
    120_000,
  );
});
