import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, fakeIp, loginRoot, newAdmin, newUser, request, uniqueName, type ApiSession } from "../support/api";

/**
 * The /user console page: its actions check roles on the server, so a form posted by
 * hand (no button shown) is refused just the same. Plain form posts, as a browser without
 * JavaScript sends them.
 */
async function formPost(session: ApiSession, path: string, fields: Record<string, string>) {
  const res = await fetch(baseUrl() + path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": fakeIp(),
      Cookie: session.cookie,
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

async function pageGet(session: ApiSession, path: string) {
  const res = await fetch(baseUrl() + path, {
    headers: { Cookie: session.cookie, "X-Forwarded-For": fakeIp() },
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

let root: ApiSession;
let admin: ApiSession;
let otherAdmin: ApiSession;

beforeAll(async () => {
  root = await loginRoot();
  admin = await newAdmin();
  otherAdmin = await newAdmin();
});

const userOf = async (id: number) => (await root.call("GET", `/api/user/${id}`)).json.data;

describe("/user page: server-side role checks", () => {
  it("an admin posting row operations and 添加额度 against root or another admin is refused and changes nothing", async () => {
    for (const target of [root.userId, otherAdmin.userId]) {
      const before = await userOf(target);
      for (const intent of ["disable", "enable", "delete", "promote", "demote"]) {
        const res = await formPost(admin, "/user?index", { intent, id: String(target) });
        expect(res.status, `${intent} ${target}`).toBe(400);
        expect(res.location).toBeNull();
      }
      const quota = await formPost(admin, "/user?index", {
        intent: "add-quota",
        id: String(target),
        quota_delta: "1000000",
      });
      expect(quota.status).toBe(400);
      expect(quota.text).toContain(
        target === root.userId ? "无法编辑超级管理员用户" : "无权更新同权限等级或更高权限等级的用户信息",
      );
      const after = await userOf(target);
      expect(after).toMatchObject({ role: before.role, status: before.status, DeletedAt: null });
      // Root's balance moves with other tests' calls; the other admin's does not.
      if (target === otherAdmin.userId) expect(after.quota).toBe(before.quota);
    }
  });

  it("an admin cannot open or post the edit page of root or another admin (403)", async () => {
    for (const target of [root.userId, otherAdmin.userId]) {
      const before = await userOf(target);
      expect((await pageGet(admin, `/user/edit/${target}`)).status).toBe(403);
      const res = await formPost(admin, `/user/edit/${target}`, {
        username: before.username,
        display_name: "篡改",
        quota: "999",
        original_quota: "0",
      });
      expect(res.status).toBe(403);
      const after = await userOf(target);
      expect(after.display_name).toBe(before.display_name);
      expect(after.quota).not.toBe(999);
    }
  });

  it("an admin may ban an ordinary user but not promote them; root may", async () => {
    const user = await newUser();
    const promote = await formPost(admin, "/user?index", { intent: "promote", id: String(user.userId) });
    expect(promote.status).toBe(400);
    expect(promote.text).toContain("普通管理员用户无法提升其他用户为管理员");
    const ban = await formPost(admin, "/user?index", { intent: "disable", id: String(user.userId) });
    expect(ban.status).toBe(302);
    expect((await userOf(user.userId)).status).toBe(2);
    expect((await formPost(root, "/user?index", { intent: "promote", id: String(user.userId) })).status).toBe(302);
    expect((await userOf(user.userId)).role).toBe(10);
  });

  it("an ordinary user gets 403 on every /user page and action", async () => {
    const user = await newUser();
    const target = await newUser();
    for (const path of ["/user", "/user/add", `/user/edit/${target.userId}`])
      expect((await pageGet(user, path)).status, path).toBe(403);
    expect((await formPost(user, "/user?index", { intent: "disable", id: String(target.userId) })).status).toBe(403);
    expect((await formPost(user, "/user/add", { username: "sneaky", password: "password123" })).status).toBe(403);
    expect(
      (await formPost(user, `/user/edit/${target.userId}`, { username: target.username, display_name: "x" })).status,
    ).toBe(403);
    expect((await userOf(target.userId)).status).toBe(1);
  });

  it("添加额度 never takes a balance below zero; a short password is refused with the product's message", async () => {
    const user = await newUser();
    await root.call("PUT", "/api/user/", { id: user.userId, quota: 300 });
    const res = await formPost(admin, "/user?index", {
      intent: "add-quota",
      id: String(user.userId),
      quota_delta: "-1000",
    });
    expect(res.status).toBe(302);
    expect((await userOf(user.userId)).quota).toBe(0);
    expect(
      (await formPost(admin, "/user?index", { intent: "add-quota", id: String(user.userId), quota_delta: "1.5" }))
        .status,
    ).toBe(400);
    const shorty = uniqueName("s");
    const add = await formPost(admin, "/user/add", { username: shorty, password: "short" });
    expect(add.status).toBe(400);
    expect(add.text).toContain("密码长度不得小于 8 位！");
    expect(
      (
        await request("GET", `/api/user/search?keyword=${shorty}`, undefined, {
          Cookie: root.cookie,
          "New-Api-User": String(root.userId),
        })
      ).json.data,
    ).toEqual([]);
  });

  it("root editing itself through the page keeps its group and quota whatever is posted", async () => {
    const before = await userOf(root.userId);
    const res = await formPost(root, `/user/edit/${root.userId}`, {
      username: before.username,
      display_name: before.display_name,
      email: before.email,
      group: "vip",
      quota: "1",
      original_quota: String(before.quota),
    });
    expect(res.status).toBe(302);
    const after = await userOf(root.userId);
    expect(after).toMatchObject({ group: before.group, display_name: before.display_name });
    expect(after.quota).not.toBe(1);
  });
});
