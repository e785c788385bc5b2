import { afterAll, describe, expect, it } from "vitest";
import { loginRoot, newUser, request } from "../support/api";

/**
 * Requests the reference's own web console (and its scripts) send, answered the way that console
 * expects: an option saved with its value left out, the root-only database probe, the 501 for
 * model deletion, and full token keys in lists when the operator turns them on.
 */

describe("PUT /api/option/ without a value", () => {
  afterAll(async () => {
    const root = await loginRoot();
    await root.call("PUT", "/api/option/", { key: "TelegramBotName", value: "" });
    await root.call("PUT", "/api/option/", { key: "TelegramBotToken", value: "" });
  });

  it("saves an empty value, as the console means by leaving the field out", async () => {
    const root = await loginRoot();
    expect((await root.call("PUT", "/api/option/", { key: "TelegramBotName", value: "compat_bot" })).json.success).toBe(true);
    const cleared = await root.call("PUT", "/api/option/", { key: "TelegramBotName" });
    expect(cleared.status).toBe(200);
    expect(cleared.json.success).toBe(true);
    const options = (await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[];
    expect(options.find((o) => o.key === "TelegramBotName")?.value).toBe("");
    // The console's own case: a secret left empty.
    const token = await root.call("PUT", "/api/option/", { key: "TelegramBotToken" });
    expect(token.status).toBe(200);
    expect(token.json.success).toBe(true);
  });

  it("still refuses an empty value where the option's rules do, with the usual answer", async () => {
    const root = await loginRoot();
    const before = ((await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[]).find((o) => o.key === "QuotaForNewUser")?.value;
    const refused = await root.call("PUT", "/api/option/", { key: "QuotaForNewUser" });
    expect(refused.status).toBe(200);
    expect(refused.json.success).toBe(false);
    expect(refused.json.message).toContain("QuotaForNewUser");
    const after = ((await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[]).find((o) => o.key === "QuotaForNewUser")?.value;
    expect(after).toBe(before);
  });
});

describe("GET /api/status/test", () => {
  it("answers root that the database is there", async () => {
    const root = await loginRoot();
    const res = await root.call("GET", "/api/status/test");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: "" });
  });

  it("is refused to an ordinary user and to nobody, without running the check", async () => {
    const user = await newUser();
    const asUser = await user.call("GET", "/api/status/test");
    expect(asUser.json.success).toBe(false);
    expect(asUser.json.message).toContain("权限不足");
    const anonymous = await request("GET", "/api/status/test");
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.success).toBe(false);
  });
});

describe("DELETE /v1/models/:model", () => {
  it("is 501 in the OpenAI error shape, as the reference answers", async () => {
    const res = await request("DELETE", "/v1/models/ft-compat-model", undefined, { Authorization: "Bearer sk-anything" });
    expect(res.status).toBe(501);
    expect(res.json.error).toMatchObject({ message: expect.any(String), type: expect.any(String), code: "api_not_implemented" });
    expect(Object.keys(res.json.error)).toEqual(expect.arrayContaining(["message", "type", "param", "code"]));
  });

  it("leaves GET /v1/models/:model as it was", async () => {
    const res = await request("GET", "/v1/models/ft-compat-model");
    expect(res.status).toBe(401);
  });
});
