import { describe, expect, inject, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { startServer } from "../support/server";
import { call, channelAndKey, eventually, signIn, stoppedAfterAll } from "../support/standalone";

/**
 * The scaled-out shape: two web nodes (WORKERS=off) and one BullMQ worker on one PostgreSQL and
 * one Redis, each node with its own data directory and the shared secrets. A change made through
 * one node is served by the other within a second; a node killed in the middle of a stream costs
 * nothing once it is back (charges equal the logs).
 */
const kind = inject("dbKind");
const started = stoppedAfterAll();
const shared = {
  WORKERS: "off",
  SESSION_SECRET: "multi-node-session-secret",
  CRYPTO_SECRET: "multi-node-crypto-secret",
};

const chatBody = (stream: boolean) =>
  JSON.stringify({ model: "gpt-4o-mini", stream, max_tokens: 50, messages: [{ role: "user", content: "hi" }] });

describe.runIf(kind === "postgres")("two web nodes and a worker", () => {
  it("changes on one node reach the other within a second, and a node killed mid-stream costs nothing", async () => {
    const upstream = await startOpenAiMock();
    started.upstreams.push(upstream);
    const a = await startServer({ kind, env: { ...shared, NODE_ID: "node-a" } }); // with its worker
    started.servers.push(a);
    const dirB = mkdtempSync(join(tmpdir(), "switchyard-node-b-"));
    const storageB = { dataDir: dirB, databaseUrl: a.databaseUrl };
    let b = await startServer({ kind, env: { ...shared, NODE_ID: "node-b" }, storage: storageB, worker: false });
    started.servers.unshift(b);
    try {
      const admin = await signIn(a.baseUrl);
      const key = await channelAndKey(admin, upstream.url);
      const chatOn = (baseUrl: string, stream = false) =>
        fetch(`${baseUrl}/v1/chat/completions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: chatBody(stream),
        });
      const quota = async () =>
        (await call(a.baseUrl, "/api/user/self", { headers: admin.auth })).json.data.quota as number;
      const before = await quota();
      // The session signed by node A is good on node B (shared SESSION_SECRET); B decrypts the channel key A stored (CRYPTO_SECRET).
      expect((await call(b.baseUrl, "/api/user/self", { headers: admin.auth })).status).toBe(200);
      expect((await chatOn(b.baseUrl)).status).toBe(200);

      // A token disabled through A is refused by B within a second.
      const tokenId = (
        (await call(a.baseUrl, "/api/token/", { headers: admin.auth })).json.data as { id: number }[]
      )[0]!.id;
      await call(a.baseUrl, "/api/token/?status_only=true", {
        method: "PUT",
        headers: admin.auth,
        body: { id: tokenId, status: 2 },
      });
      expect(await eventually(async () => (await chatOn(b.baseUrl)).status === 401, 1_000, 50)).toBe(true);
      await call(a.baseUrl, "/api/token/?status_only=true", {
        method: "PUT",
        headers: admin.auth,
        body: { id: tokenId, status: 1 },
      });
      expect(await eventually(async () => (await chatOn(b.baseUrl)).status === 200, 1_000, 50)).toBe(true);

      // A channel disabled through A stops receiving B's traffic within a second.
      const channelId = (
        (await call(a.baseUrl, "/api/channel/", { headers: admin.auth })).json.data as { id: number }[]
      )[0]!.id;
      await call(a.baseUrl, "/api/channel/", {
        method: "PUT",
        headers: admin.auth,
        body: { id: channelId, status: 2 },
      });
      expect(await eventually(async () => (await chatOn(b.baseUrl)).status !== 200, 1_000, 50)).toBe(true);
      await call(a.baseUrl, "/api/channel/", {
        method: "PUT",
        headers: admin.auth,
        body: { id: channelId, status: 1 },
      });
      expect(await eventually(async () => (await chatOn(b.baseUrl)).status === 200, 1_000, 50)).toBe(true);

      // An option saved through A is in effect on B within a second.
      const name = `节点${Math.random().toString(36).slice(2, 6)}`;
      await call(a.baseUrl, "/api/option/", {
        method: "PUT",
        headers: admin.auth,
        body: { key: "SystemName", value: name },
      });
      expect(
        await eventually(
          async () => (await call(b.baseUrl, "/api/status")).json?.data?.system_name === name,
          1_000,
          50,
        ),
      ).toBe(true);

      // B is killed with -9 while it streams a reply; back up, nothing is lost or charged twice.
      upstream.fault = { kind: "slow-stream", gapMs: 400 };
      const streaming = await chatOn(b.baseUrl, true);
      expect(streaming.status).toBe(200);
      const reader = streaming.body!.getReader();
      await reader.read();
      await b.crash();
      await reader.read().catch(() => undefined);
      upstream.fault = undefined;
      b = await startServer({ kind, env: { ...shared, NODE_ID: "node-b" }, storage: storageB, worker: false });
      started.servers.unshift(b);
      expect((await chatOn(b.baseUrl)).status).toBe(200);

      const db = new pg.Client({ connectionString: a.databaseUrl });
      await db.connect();
      try {
        const settled = async () => {
          const logged = Number(
            (await db.query("select coalesce(sum(quota), 0) as q from logs where type = 2")).rows[0].q,
          );
          return { logged, spent: before - (await quota()) };
        };
        // The balance shown is the whole balance (leases apart): what was taken from it is exactly what the logs say.
        expect(
          await eventually(async () => {
            const { logged, spent } = await settled();
            return logged > 0 && spent === logged;
          }, 15_000),
        ).toBe(true);
      } finally {
        await db.end();
      }
    } finally {
      rmSync(dirB, { recursive: true, force: true });
    }
  }, 180_000);

  it("limits are exact across nodes, and with two workers each schedule runs once per period", async () => {
    const upstream = await startOpenAiMock();
    started.upstreams.push(upstream);
    const tick = { SCHEDULE_TICK_SECONDS: "1" };
    const a = await startServer({ kind, env: { ...shared, ...tick, NODE_ID: "node-a" } });
    started.servers.push(a);
    const dirB = mkdtempSync(join(tmpdir(), "switchyard-node-b-"));
    // B brings a second worker: two processes that could each run every schedule.
    const b = await startServer({
      kind,
      env: { ...shared, ...tick, NODE_ID: "node-b" },
      storage: { dataDir: dirB, databaseUrl: a.databaseUrl },
    });
    started.servers.unshift(b);
    try {
      const admin = await signIn(a.baseUrl);
      const key = await channelAndKey(admin, upstream.url);
      const tokenId = (
        (await call(a.baseUrl, "/api/token/", { headers: admin.auth })).json.data as { id: number }[]
      )[0]!.id;
      const token = (await call(a.baseUrl, `/api/token/${tokenId}`, { headers: admin.auth })).json.data as Record<
        string,
        unknown
      >;
      expect(
        (await call(a.baseUrl, "/api/token/", { method: "PUT", headers: admin.auth, body: { ...token, rpm_limit: 5 } }))
          .json.success,
      ).toBe(true);
      expect(
        await eventually(
          async () =>
            (await call(b.baseUrl, `/api/token/${tokenId}`, { headers: admin.auth })).json.data.rpm_limit === 5,
          1_000,
          50,
        ),
      ).toBe(true);
      // 16 calls at once, half through each node: exactly 5 are served.
      const chatOn = (baseUrl: string) =>
        fetch(`${baseUrl}/v1/chat/completions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: chatBody(false),
        });
      const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => chatOn(i % 2 ? a.baseUrl : b.baseUrl)));
      expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
      expect(replies.filter((r) => r.status === 429)).toHaveLength(11);
      expect(upstream.requests).toHaveLength(5);

      // The auto-test and the balance refresh every 3 s, watched for 10 s: each period's run
      // reaches the upstream once, though two workers tick every second.
      upstream.requests.length = 0;
      const setOption = (k: string, value: string) =>
        call(a.baseUrl, "/api/option/", { method: "PUT", headers: admin.auth, body: { key: k, value } });
      await setOption("ChannelTestFrequency", "0.05");
      await setOption("ChannelUpdateFrequency", "0.05");
      const since = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await setOption("ChannelTestFrequency", "0");
      await setOption("ChannelUpdateFrequency", "0");
      const seen = upstream.requests.filter((r) => r.at! <= since + 10_000);
      const tests = seen.filter((r) => r.path.endsWith("/chat/completions")).length;
      const balances = seen.filter((r) => r.path.endsWith("/dashboard/billing/subscription")).length;
      // Periods that began in 10 s of 3 s each: 3 or 4 (the first may start at once); once per node would be 6 to 8.
      expect(tests).toBeGreaterThanOrEqual(2);
      expect(tests).toBeLessThanOrEqual(4);
      expect(balances).toBeGreaterThanOrEqual(2);
      expect(balances).toBeLessThanOrEqual(4);
    } finally {
      rmSync(dirB, { recursive: true, force: true });
    }
  }, 180_000);
});
