import { afterAll, describe, expect, inject, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { fakeIp } from "../support/api";
import { createScratchDatabase, startServer, type StartedServer } from "../support/server";

/**
 * A crash between reserve and settle: the server is SIGKILLed while a request holds quota, and
 * the quota is back when the same node starts again.
 */
const kind = inject("dbKind");
const servers: StartedServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const c of cleanups) await c();
});

async function call(base: string, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(base + path, { method: init.method ?? "GET", headers: { "Content-Type": "application/json", "X-Forwarded-For": fakeIp(), ...init.headers }, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  return { res, json: (await res.json().catch(() => undefined)) as any };
}

describe("crash between reserve and settle", () => {
  it("refunds the open reservation at the next start", async () => {
    const upstream = await startOpenAiMock();
    upstream.fault = { kind: "hang" };
    // Both lives of the node share its storage and its name.
    const dataDir = mkdtempSync(join(tmpdir(), "switchyard-crash-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const scratch = kind === "postgres" ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
    if (scratch) cleanups.push(scratch.drop);
    const storage = { dataDir, databaseUrl: scratch?.url };
    const nodeEnv = { NODE_ID: `crash-${Date.now()}` };
    const first = await startServer({ kind, env: nodeEnv, storage });
    servers.push(first);
    const login = await call(first.baseUrl, "/api/user/login", { method: "POST", body: { username: "root", password: "123456" } });
    const cookie = (login.res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const auth = { Cookie: cookie, "New-Api-User": String(login.json.data.id) };
    await call(first.baseUrl, "/api/channel/", { method: "POST", headers: auth, body: { type: 1, name: "c", key: "k", base_url: upstream.url, models: "gpt-4o-mini" } });
    await call(first.baseUrl, "/api/token/", { method: "POST", headers: auth, body: { name: "t", unlimited_quota: true, remain_quota: 0, expired_time: -1 } });
    const tokenId = (await call(first.baseUrl, "/api/token/", { headers: auth })).json.data[0].id;
    const key = (await call(first.baseUrl, `/api/token/${tokenId}/key`, { headers: auth })).json.data.key;
    const before = (await call(first.baseUrl, "/api/user/self", { headers: auth })).json.data.quota as number;

    void fetch(`${first.baseUrl}/v1/chat/completions`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify({ model: "gpt-4o-mini", max_tokens: 1000, messages: [{ role: "user", content: "hi" }] }) }).catch(() => undefined);
    for (let i = 0; i < 50 && upstream.requests.length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    const held = (await call(first.baseUrl, "/api/user/self", { headers: auth })).json.data.quota as number;
    expect(held).toBeLessThan(before);

    if (kind === "postgres") {
      // A second process of the same node name on the same database (a worker, another web
      // process) must leave the live process's in-flight reservation alone when it boots.
      const peer = await startServer({ kind, env: nodeEnv, storage });
      for (let i = 0; i < 200 && !peer.output().includes("processing background jobs"); i += 1) await new Promise((r) => setTimeout(r, 100));
      expect(peer.output()).toContain("processing background jobs"); // its worker booted too
      expect(peer.output()).not.toContain("refunded");
      expect((await call(first.baseUrl, "/api/user/self", { headers: auth })).json.data.quota).toBe(held);
      await peer.stop();
    }

    await first.crash();
    const second = await startServer({ kind, env: nodeEnv, storage });
    servers.push(second);
    expect(second.output()).toContain("refunded 1 quota reservations");
    const relogin = await call(second.baseUrl, "/api/user/login", { method: "POST", body: { username: "root", password: "123456" } });
    const cookie2 = (relogin.res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const after = (await call(second.baseUrl, "/api/user/self", { headers: { Cookie: cookie2, "New-Api-User": String(relogin.json.data.id) } })).json.data.quota as number;
    expect(after).toBe(before);
    await upstream.close();
  }, 120_000);
});
