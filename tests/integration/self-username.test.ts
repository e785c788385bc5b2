import { describe, expect, it } from "vitest";
import { login, newUser, request, uniqueName } from "../support/api";

/**
 * A user renames themself through PUT /api/user/self under registration's rules: the name is
 * unique (a taken one gets registration's message) and at most 12 characters; afterwards only
 * the new name signs in.
 */
const TAKEN = "用户名已存在，或已注销";

const selfName = async (session: Awaited<ReturnType<typeof newUser>>) =>
  (await session.call("GET", "/api/user/self")).json.data.username as string;

describe("PUT /api/user/self username", () => {
  it("refuses a name another account holds, and one longer than 12 characters", async () => {
    const other = await newUser();
    const user = await newUser();
    const before = await selfName(user);
    const taken = await user.call("PUT", "/api/user/self", { username: await selfName(other) });
    expect(taken.json).toMatchObject({ success: false, message: TAKEN });
    const long = await user.call("PUT", "/api/user/self", { username: "x".repeat(13) });
    expect(long.json).toMatchObject({ success: false, message: "用户名长度不得超过 12 位" });
    expect(await selfName(user)).toBe(before);
  });

  it("renames the account: the old name no longer signs in, the new one does", async () => {
    const user = await newUser();
    const oldName = await selfName(user);
    const newName = uniqueName("r");
    const res = await user.call("PUT", "/api/user/self", { username: newName });
    expect(res.json, JSON.stringify(res.json)).toMatchObject({ success: true });
    expect(await selfName(user)).toBe(newName);
    const refused = await request("POST", "/api/user/login", { username: oldName, password: "password123" });
    expect(refused.json.success).toBe(false);
    const again = await login(newName, "password123");
    expect(again.userId).toBe(user.userId);
  });

  it("keeps the name when the same name is sent back", async () => {
    const user = await newUser();
    const name = await selfName(user);
    const res = await user.call("PUT", "/api/user/self", { username: name });
    expect(res.json).toMatchObject({ success: true });
  });
});
