import { describe, expect, it } from "vitest";
import { baseUrl, loginRoot, newUser, request } from "../support/api";

async function createToken(user: Awaited<ReturnType<typeof newUser>>, body: Record<string, unknown>) {
  return user.call("POST", "/api/token/", {
    name: "t",
    remain_quota: 500000,
    expired_time: -1,
    unlimited_quota: false,
    ...body,
  });
}

async function tokensOf(user: Awaited<ReturnType<typeof newUser>>) {
  return (await user.call("GET", "/api/token/?p=0&size=100")).json.data as any[];
}

describe("/api/token", () => {
  it("creates a token (no data in the reply) that lists with a masked key and reveals the full one", async () => {
    const user = await newUser();
    const created = await createToken(user, { name: "first" });
    expect(created.json).toEqual({ success: true, message: "" });
    const [token] = await tokensOf(user);
    expect(token).toMatchObject({
      name: "first",
      status: 1,
      remain_quota: 500000,
      expired_time: -1,
      unlimited_quota: false,
      user_id: user.userId,
      used_quota: 0,
      group: "",
    });
    expect(token.key).toContain("*");
    const revealed = await user.call("GET", `/api/token/${token.id}/key`);
    expect(revealed.json.data.key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    expect(revealed.json.data.key.slice(3, 7)).toBe(token.key.slice(0, 4));
    const byKey = await user.call("GET", `/api/token/search?token=${encodeURIComponent(revealed.json.data.key)}`);
    expect(byKey.json.data.map((t: any) => t.id)).toEqual([token.id]);
  });

  it("search by key finds a token from what the list shows of its key: the hint, with or without sk- and the mask", async () => {
    const user = await newUser();
    await createToken(user, { name: "alpha" });
    await createToken(user, { name: "beta" });
    const tokens = await tokensOf(user);
    const alpha = tokens.find((t) => t.name === "alpha");
    const hint: string = alpha.key;
    const head = hint.slice(0, 4);
    const tail = hint.slice(-4);
    const found = async (typed: string) =>
      ((await user.call("GET", `/api/token/search?token=${encodeURIComponent(typed)}`)).json.data as any[]).map(
        (t) => t.id,
      );
    for (const typed of [
      `sk-${hint}`,
      hint,
      `sk-${head}…`,
      `${head}…${tail}`,
      `${head}...`,
      `…${tail}`,
      `sk-${head}`,
      head,
      tail,
      head.slice(1),
      tail.slice(0, 3),
      `${head.slice(2)}**${tail.slice(0, 2)}`,
    ]) {
      expect(await found(typed), typed).toEqual([alpha.id]);
    }
    // sk- pins the text to the key's start, and the name filter still applies alongside.
    expect(await found(`sk-${tail}`)).not.toContain(alpha.id);
    expect(await found(`${head}x`)).toEqual([]);
    const both = await user.call("GET", `/api/token/search?keyword=beta&token=${encodeURIComponent(`sk-${head}`)}`);
    expect(both.json.data).toEqual([]);
    const full = (await user.call("GET", `/api/token/${alpha.id}/key`)).json.data.key as string;
    expect(await found(full)).toEqual([alpha.id]);
    expect(await found(full.slice(3))).toEqual([alpha.id]);
  });

  it("batch create makes N tokens with 6-character suffixes", async () => {
    const user = await newUser();
    await createToken(user, { name: "batch", count: 5 });
    const tokens = await tokensOf(user);
    expect(tokens).toHaveLength(5);
    for (const t of tokens) expect(t.name).toMatch(/^batch-[A-Za-z0-9]{6}$/);
    expect(new Set(tokens.map((t) => t.name)).size).toBe(5);
  });

  it("validates name, quota, expiry, IPs and group", async () => {
    const user = await newUser();
    expect((await createToken(user, { name: "" })).json.success).toBe(false);
    expect((await createToken(user, { remain_quota: -1 })).json.success).toBe(false);
    expect((await createToken(user, { remain_quota: "lots" })).json.success).toBe(false);
    expect((await createToken(user, { expired_time: 1000 })).json.success).toBe(false);
    const badIp = await createToken(user, { allow_ips: "10.0.0.0/8\nnot-an-ip" });
    expect(badIp.json).toEqual({ success: false, message: "IP 白名单格式错误：not-an-ip" });
    expect((await createToken(user, { allow_ips: "10.0.0.0/8\n2001:db8::/32\n192.168.1.7" })).json.success).toBe(true);
    const badGroup = await createToken(user, { group: "svip-secret" });
    expect(badGroup.json.success).toBe(false);
    expect((await createToken(user, { group: "vip" })).json.success).toBe(true);
    expect((await createToken(user, { count: 101 })).json.success).toBe(false);
  });

  it("refuses to enable an expired or exhausted token, with the reference's messages", async () => {
    const user = await newUser();
    await createToken(user, { name: "empty", remain_quota: 0 });
    const [token] = await tokensOf(user);
    const disable = await user.call("PUT", "/api/token/?status_only=true", { id: token.id, status: 2 });
    expect(disable.json.data.status).toBe(2);
    const enable = await user.call("PUT", "/api/token/?status_only=true", { id: token.id, status: 1 });
    expect(enable.json.success).toBe(false);
    expect(enable.json.message).toContain("令牌可用额度已用尽，无法启用");
    const unlimited = await user.call("PUT", "/api/token/", { ...token, unlimited_quota: true, key: undefined });
    expect(unlimited.json.success).toBe(true);
    expect((await user.call("PUT", "/api/token/?status_only=true", { id: token.id, status: 1 })).json.data.status).toBe(
      1,
    );
  });

  it("updates fields and deletes", async () => {
    const user = await newUser();
    await createToken(user, { name: "edit-me" });
    const [token] = await tokensOf(user);
    const put = await user.call("PUT", "/api/token/", {
      id: token.id,
      name: "edited",
      remain_quota: 42,
      expired_time: -1,
      model_limits_enabled: true,
      model_limits: "gpt-4o,gpt-4o-mini,gpt-4o",
    });
    expect(put.json.data).toMatchObject({
      name: "edited",
      remain_quota: 42,
      model_limits_enabled: true,
      model_limits: "gpt-4o,gpt-4o-mini",
    });
    expect((await user.call("GET", `/api/token/${token.id}`)).json.data.name).toBe("edited");
    expect((await user.call("DELETE", `/api/token/${token.id}/`)).json.success).toBe(true);
    expect(await tokensOf(user)).toHaveLength(0);
    expect((await user.call("GET", `/api/token/${token.id}`)).json.success).toBe(false);
  });

  it("no user can read, change, reveal or delete another user's token", async () => {
    const owner = await newUser();
    const thief = await newUser();
    await createToken(owner, { name: "mine" });
    const [token] = await tokensOf(owner);
    expect((await thief.call("GET", `/api/token/${token.id}`)).json.success).toBe(false);
    expect((await thief.call("GET", `/api/token/${token.id}/key`)).json.success).toBe(false);
    expect(
      (await thief.call("PUT", "/api/token/", { id: token.id, name: "stolen", remain_quota: 1, expired_time: -1 })).json
        .success,
    ).toBe(false);
    expect((await thief.call("PUT", "/api/token/?status_only=true", { id: token.id, status: 2 })).json.success).toBe(
      false,
    );
    expect((await thief.call("DELETE", `/api/token/${token.id}/`)).json.success).toBe(false);
    expect((await thief.call("GET", "/api/token/search?keyword=mine")).json.data).toHaveLength(0);
    const [still] = await tokensOf(owner);
    expect(still).toMatchObject({ name: "mine", status: 1 });
  });

  it("requires a signed-in user", async () => {
    const res = await request("GET", "/api/token/");
    expect(res.status).toBe(401);
    expect(res.json.success).toBe(false);
  });
});

describe("per-token rate limits (rpm_limit, tpm_limit)", () => {
  const RPM = "每分钟请求数限制（RPM）必须是 0 到 1000000000 之间的整数（0 表示不限制）";
  const TPM = "每分钟 Token 数限制（TPM）必须是 0 到 1000000000 之间的整数（0 表示不限制）";

  it("are stored on create and read back by get, list and search; left out they are 0 (no limit)", async () => {
    const user = await newUser();
    expect((await createToken(user, { name: "limited", rpm_limit: 60, tpm_limit: 120000 })).json.success).toBe(true);
    expect((await createToken(user, { name: "free" })).json.success).toBe(true);
    const [free, limited] = await tokensOf(user);
    expect(limited).toMatchObject({ name: "limited", rpm_limit: 60, tpm_limit: 120000 });
    expect(free).toMatchObject({ name: "free", rpm_limit: 0, tpm_limit: 0 });
    expect((await user.call("GET", `/api/token/${limited.id}`)).json.data).toMatchObject({
      rpm_limit: 60,
      tpm_limit: 120000,
    });
    const found = (await user.call("GET", "/api/token/search?keyword=limited")).json.data;
    expect(found).toEqual([expect.objectContaining({ id: limited.id, rpm_limit: 60, tpm_limit: 120000 })]);
  });

  it("an edit changes them, an edit that leaves them out keeps them, and 0 lifts them", async () => {
    const user = await newUser();
    await createToken(user, { name: "edit", rpm_limit: 5, tpm_limit: 1000 });
    const [token] = await tokensOf(user);
    const base = { id: token.id, name: "edit", expired_time: -1, remain_quota: 500000 };
    const changed = await user.call("PUT", "/api/token/", { ...base, rpm_limit: 7, tpm_limit: 2000 });
    expect(changed.json.data).toMatchObject({ rpm_limit: 7, tpm_limit: 2000 });
    // A client that knows nothing of the limits (the reference's console) saves without lifting them.
    const unaware = await user.call("PUT", "/api/token/", { ...base, name: "renamed" });
    expect(unaware.json.data).toMatchObject({ name: "renamed", rpm_limit: 7, tpm_limit: 2000 });
    expect((await user.call("GET", `/api/token/${token.id}`)).json.data).toMatchObject({
      rpm_limit: 7,
      tpm_limit: 2000,
    });
    const onlyRpm = await user.call("PUT", "/api/token/", { ...base, rpm_limit: 0 });
    expect(onlyRpm.json.data).toMatchObject({ rpm_limit: 0, tpm_limit: 2000 });
    const [listed] = await tokensOf(user);
    expect(listed).toMatchObject({ rpm_limit: 0, tpm_limit: 2000 });
  });

  it("a negative, fractional, non-numeric or absurd limit is refused with a clear message and nothing changes", async () => {
    const user = await newUser();
    for (const rpm_limit of [-1, 1.5, "lots", 1_000_000_001, 1e20]) {
      const res = await createToken(user, { name: "bad", rpm_limit });
      expect(res.json, String(rpm_limit)).toEqual({ success: false, message: `无效的参数：rpm_limit: ${RPM}` });
      expect(res.status, String(rpm_limit)).toBeLessThan(500);
    }
    const tpm = await createToken(user, { name: "bad", tpm_limit: -5 });
    expect(tpm.json).toEqual({ success: false, message: `无效的参数：tpm_limit: ${TPM}` });
    expect(await tokensOf(user)).toEqual([]);

    expect(
      (await createToken(user, { name: "edge", rpm_limit: 1_000_000_000, tpm_limit: 1_000_000_000 })).json.success,
    ).toBe(true);
    const [token] = await tokensOf(user);
    expect(token).toMatchObject({ rpm_limit: 1_000_000_000, tpm_limit: 1_000_000_000 });
    const base = { id: token.id, name: "edge", expired_time: -1, remain_quota: 500000 };
    const badEdit = await user.call("PUT", "/api/token/", { ...base, tpm_limit: 2_000_000_000 });
    expect(badEdit.json).toEqual({ success: false, message: `无效的参数：tpm_limit: ${TPM}` });
    expect((await user.call("PUT", "/api/token/", { ...base, rpm_limit: "many" })).json).toEqual({
      success: false,
      message: `无效的参数：rpm_limit: ${RPM}`,
    });
    expect((await user.call("GET", `/api/token/${token.id}`)).json.data).toMatchObject({
      rpm_limit: 1_000_000_000,
      tpm_limit: 1_000_000_000,
    });
  });
});

describe("groups and models for users", () => {
  it("lists usable groups as UserUsableGroups ∩ GroupRatio plus the user's own group", async () => {
    const user = await newUser();
    const groups = await user.call("GET", "/api/user/self/groups");
    expect(groups.json.data).toEqual({ default: "默认分组", vip: "vip分组" });
    const root = await loginRoot();
    await root.call("PUT", "/api/option/", {
      key: "UserUsableGroups",
      value: JSON.stringify({ default: "默认分组", vip: "vip分组", ghost: "no ratio" }),
    });
    try {
      const again = await user.call("GET", "/api/user/self/groups");
      expect(again.json.data).not.toHaveProperty("ghost");
    } finally {
      await root.call("PUT", "/api/option/", {
        key: "UserUsableGroups",
        value: JSON.stringify({ default: "默认分组", vip: "vip分组" }),
      });
    }
  });

  it("GET /api/group/ is for admins only", async () => {
    const user = await newUser();
    expect((await user.call("GET", "/api/group/")).json.success).toBe(false);
    const root = await loginRoot();
    expect((await root.call("GET", "/api/group/")).json.data).toEqual(["default", "vip", "svip"]);
  });
});

describe("token input is what it says", () => {
  it('the string "false" for unlimited_quota is refused with a clear message, not read as true', async () => {
    const user = await newUser();
    const res = await createToken(user, { name: "strbool", unlimited_quota: "false" });
    expect(res.json.success).toBe(false);
    expect(res.json.message).toContain("unlimited_quota");
    expect(res.json.message).toContain("布尔值");
    const flags = await createToken(user, { name: "strbool2", model_limits_enabled: "true" });
    expect(flags.json.success).toBe(false);
    const list = await user.call("GET", "/api/token/?p=0&size=10");
    expect(list.json.data).toEqual([]);
  });

  it("names are limited to the reference's 30 UTF-8 bytes (Go's len())", async () => {
    const user = await newUser();
    expect((await createToken(user, { name: "😀".repeat(40) })).json).toEqual({
      success: false,
      message: "令牌名称过长",
    });
    expect((await createToken(user, { name: "😀".repeat(8) })).json).toEqual({
      success: false,
      message: "令牌名称过长",
    }); // 32 bytes
    expect((await createToken(user, { name: "令".repeat(11) })).json).toEqual({
      success: false,
      message: "令牌名称过长",
    }); // 33 bytes
    expect((await createToken(user, { name: "a".repeat(31) })).json).toEqual({
      success: false,
      message: "令牌名称过长",
    });
    expect((await createToken(user, { name: "a".repeat(30) })).json.success).toBe(true);
    expect((await createToken(user, { name: "令".repeat(10) })).json.success).toBe(true);
    expect((await createToken(user, { name: "😀".repeat(7) })).json.success).toBe(true);
  });

  it("a batch whose suffixed names would pass 30 bytes is refused, so every stored name can be saved again", async () => {
    const user = await newUser();
    const long = await createToken(user, { name: "a".repeat(24), count: 2 });
    expect(long.json.success).toBe(false);
    expect(long.json.message).toContain("令牌名称过长");
    expect((await createToken(user, { name: "a".repeat(23), count: 2 })).json.success).toBe(true);
    const [token] = await tokensOf(user);
    expect(new TextEncoder().encode(token.name).length).toBe(30);
    expect(
      (await user.call("PUT", "/api/token/", { id: token.id, name: token.name, expired_time: -1, remain_quota: 7 }))
        .json.success,
    ).toBe(true);
  });

  it("an expiry beyond year 9999 is refused, and the token pages render a far expiry", async () => {
    const user = await newUser();
    for (const expired_time of [99999999999999, 253402300800, 0, -2]) {
      const res = await createToken(user, { name: "far", expired_time });
      expect(res.json, String(expired_time)).toEqual({ success: false, message: "过期时间格式错误！" });
    }
    expect((await createToken(user, { name: "last", expired_time: 253402300799 })).json.success).toBe(true);
    const [token] = (await user.call("GET", "/api/token/?p=0&size=10")).json.data;
    expect(token.expired_time).toBe(253402300799);
    const edit = await user.call("PUT", "/api/token/", {
      id: token.id,
      name: "last",
      expired_time: 99999999999999,
      remain_quota: 1,
    });
    expect(edit.json).toEqual({ success: false, message: "过期时间格式错误！" });
    for (const page of ["/token", `/token/edit/${token.id}`]) {
      const res = await fetch(baseUrl() + page, { headers: { Cookie: `${user.cookie}; tz=UTC` } });
      expect(res.status, page).toBe(200);
      expect(await res.text(), page).toContain("9999-12-31");
    }
  });
  it("shows an enabled token as expired (3) once its expiry passes and as exhausted (4) with no quota left, in list, search and get", async () => {
    const user = await newUser();
    // The API refuses an expiry in the past, so the token gets a near one and the test waits it out.
    const soon = Math.floor(Date.now() / 1000) + 2;
    expect((await createToken(user, { name: "soon-gone", expired_time: soon })).json.success).toBe(true);
    expect((await createToken(user, { name: "drained", remain_quota: 0 })).json.success).toBe(true);
    expect(
      (await createToken(user, { name: "drained-free", remain_quota: 0, unlimited_quota: true })).json.success,
    ).toBe(true);
    const before = await tokensOf(user);
    expect(before.find((t) => t.name === "soon-gone").status).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, (soon + 1) * 1000 - Date.now() + 100));
    const statusOf = (rows: any[]) => Object.fromEntries(rows.map((t) => [t.name, t.status]));
    expect(statusOf(await tokensOf(user))).toEqual({ "soon-gone": 3, drained: 4, "drained-free": 1 });
    expect(statusOf((await user.call("GET", "/api/token/search?keyword=soon")).json.data)).toEqual({ "soon-gone": 3 });
    const expired = before.find((t) => t.name === "soon-gone");
    expect((await user.call("GET", `/api/token/${expired.id}`)).json.data.status).toBe(3);
    // Enabling it again is refused until its expiry moves, and a re-save cannot keep the past expiry.
    const enable = await user.call("PUT", "/api/token/?status_only=true", { id: expired.id, status: 1 });
    expect(enable.json.message).toContain("令牌已过期，无法启用");
    const resave = await user.call("PUT", "/api/token/", {
      id: expired.id,
      name: "soon-gone",
      remain_quota: 500000,
      expired_time: soon,
    });
    expect(resave.json).toEqual({ success: false, message: "过期时间不能早于当前时间" });
    const extended = await user.call("PUT", "/api/token/", {
      id: expired.id,
      name: "soon-gone",
      remain_quota: 500000,
      expired_time: -1,
    });
    expect(extended.json.data.status).toBe(1);
  });
});
