import { afterAll, describe, expect, inject, it } from "vitest";
import { loginRoot, newUser, request } from "../support/api";
import { startServer } from "../support/server";
import { call, signIn, stoppedAfterAll } from "../support/standalone";

/**
 * Requests the reference's own web console (and its scripts) send, answered the way that console
 * expects: an option saved with its value left out, the root-only database probe, the 501 for
 * model deletion, and full token keys in lists when the operator turns them on.
 */
const kind = inject("dbKind");
const started = stoppedAfterAll();

describe("PUT /api/option/ without a value", () => {
  afterAll(async () => {
    const root = await loginRoot();
    await root.call("PUT", "/api/option/", { key: "TelegramBotName", value: "" });
    await root.call("PUT", "/api/option/", { key: "TelegramBotToken", value: "" });
  });

  it("saves an empty value, as the console means by leaving the field out", async () => {
    const root = await loginRoot();
    expect((await root.call("PUT", "/api/option/", { key: "TelegramBotName", value: "compat_bot" })).json.success).toBe(
      true,
    );
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
    const before = ((await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[]).find(
      (o) => o.key === "QuotaForNewUser",
    )?.value;
    const refused = await root.call("PUT", "/api/option/", { key: "QuotaForNewUser" });
    expect(refused.status).toBe(200);
    expect(refused.json.success).toBe(false);
    expect(refused.json.message).toContain("QuotaForNewUser");
    const after = ((await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[]).find(
      (o) => o.key === "QuotaForNewUser",
    )?.value;
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
    const res = await request("DELETE", "/v1/models/ft-compat-model", undefined, {
      Authorization: "Bearer sk-anything",
    });
    expect(res.status).toBe(501);
    expect(res.json.error).toMatchObject({
      message: expect.any(String),
      type: expect.any(String),
      code: "api_not_implemented",
    });
    expect(Object.keys(res.json.error)).toEqual(expect.arrayContaining(["message", "type", "param", "code"]));
  });

  it("leaves GET /v1/models/:model as it was", async () => {
    const res = await request("GET", "/v1/models/ft-compat-model");
    expect(res.status).toBe(401);
  });
});

describe("EXPOSE_FULL_KEYS", () => {
  async function tokenNamed(
    session: { call: (m: string, p: string, b?: unknown) => Promise<{ json: any }> },
    name: string,
  ) {
    expect(
      (await session.call("POST", "/api/token/", { name, unlimited_quota: true, remain_quota: 0, expired_time: -1 }))
        .json.success,
    ).toBe(true);
    const list = (await session.call("GET", "/api/token/")).json.data as { id: number; name: string; key: string }[];
    return list.find((t) => t.name === name)!;
  }

  it("off (the default): list, search, detail and edit carry the masked hint", async () => {
    const user = await newUser();
    const listed = await tokenNamed(user, "masked");
    expect(listed.key).toMatch(/^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
    const searched = (await user.call("GET", "/api/token/search?keyword=masked")).json.data as { key: string }[];
    expect(searched[0]!.key).toBe(listed.key);
    expect((await user.call("GET", `/api/token/${listed.id}`)).json.data.key).toBe(listed.key);
    const full = (await user.call("GET", `/api/token/${listed.id}/key`)).json.data.key as string;
    expect(full).not.toContain("*");
    expect(full.endsWith(listed.key.slice(-4))).toBe(true);
    expect((await user.call("PUT", "/api/token/?status_only=true", { id: listed.id, status: 1 })).json.data.key).toBe(
      listed.key,
    );
  });

  it("on: list, search, detail and edit carry the full key, which works on /v1", async () => {
    const server = await startServer({ kind, env: { EXPOSE_FULL_KEYS: "true" }, worker: false });
    started.servers.push(server);
    const root = await signIn(server.baseUrl);
    const session = {
      call: (method: string, path: string, body?: unknown) =>
        call(server.baseUrl, path, { method, body, headers: root.auth }),
    };
    const listed = await tokenNamed(session, "exposed");
    // The reference's form: 48 characters, its console prepends `sk-`.
    expect(listed.key).toMatch(/^[A-Za-z0-9]{48}$/);
    const searched = (await session.call("GET", "/api/token/search?keyword=exposed")).json.data as { key: string }[];
    expect(searched[0]!.key).toBe(listed.key);
    expect((await session.call("GET", `/api/token/${listed.id}`)).json.data.key).toBe(listed.key);
    expect((await session.call("GET", `/api/token/${listed.id}/key`)).json.data.key).toBe(`sk-${listed.key}`);
    expect(
      (await session.call("PUT", "/api/token/?status_only=true", { id: listed.id, status: 1 })).json.data.key,
    ).toBe(listed.key);
    // What the reference's console copies is a key the relay takes.
    const models = await fetch(`${server.baseUrl}/v1/models`, {
      headers: { Authorization: `Bearer sk-${listed.key}` },
    });
    expect(models.status).toBe(200);
    expect(((await models.json()) as { object: string }).object).toBe("list");
    const altered = listed.key.slice(0, -1) + (listed.key.endsWith("x") ? "y" : "x");
    const wrong = await fetch(`${server.baseUrl}/v1/models`, { headers: { Authorization: `Bearer sk-${altered}` } });
    expect(wrong.status).toBe(401);
  });
});
