import { describe, expect, inject, it } from "vitest";
import { Redis } from "ioredis";
import pg from "pg";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { freePort, startServer } from "../support/server";
import { startTestRedis } from "../support/redis-server";
import { moneySnapshot } from "../support/money-snapshot";
import { call, channelAndKey, chat, eventually, signIn, stoppedAfterAll } from "../support/standalone";

/**
 * Redis going away costs nothing a user waits for. Sign-in and saves answer at
 * once (publishing is fired, not awaited), relaying goes on, /healthz says "degraded", and when
 * Redis is back pub/sub works again by itself. A node also starts while Redis is down.
 */
const kind = inject("dbKind");
const { servers, upstreams, redises } = stoppedAfterAll();

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await work();
  return { ms: Date.now() - started, value };
}

describe("Redis outage", () => {
  it("with Redis stopped, sign-in and saves answer within 2 s, relay works, /healthz is degraded; pub/sub recovers", async () => {
    const redis = await startTestRedis();
    redises.push(redis);
    const upstream = await startOpenAiMock();
    upstreams.push(upstream);
    const server = await startServer({ kind, env: { REDIS_URL: redis.url(0) }, worker: false });
    servers.push(server);
    const node = await signIn(server.baseUrl);
    const key = await channelAndKey(node, upstream.url);
    const healthy = await call(server.baseUrl, "/healthz");
    expect(healthy.status).toBe(200);
    expect(healthy.json).toMatchObject({
      ok: true,
      db: { ok: true },
      redis: { status: "ok" },
      journal: { ok: true, writable: true, quarantined: 0 },
    });

    // The server's broadcasts, as another node would hear them.
    const listener = new Redis(redis.url(0));
    const heard: { channel: string; message: string }[] = [];
    listener.on("pmessage", (_p: string, channel: string, message: string) => heard.push({ channel, message }));
    await listener.psubscribe("switchyard:*");

    await redis.stop();
    listener.disconnect();

    const login = await timed(() =>
      call(server.baseUrl, "/api/user/login", { method: "POST", body: { username: "root", password: "123456" } }),
    );
    expect(login.value.json?.success).toBe(true);
    expect(login.ms).toBeLessThan(2_000);
    const option = await timed(() =>
      call(server.baseUrl, "/api/option/", {
        method: "PUT",
        headers: node.auth,
        body: { key: "Notice", value: "during the outage" },
      }),
    );
    expect(option.value.json?.success).toBe(true);
    expect(option.ms).toBeLessThan(2_000);
    const channels = (await call(server.baseUrl, "/api/channel/", { headers: node.auth })).json.data;
    const channelId = (channels.items ?? channels)[0].id as number;
    const channelSave = await timed(() =>
      call(server.baseUrl, "/api/channel/", {
        method: "PUT",
        headers: node.auth,
        body: { id: channelId, priority: 3 },
      }),
    );
    expect(channelSave.value.json?.success).toBe(true);
    expect(channelSave.ms).toBeLessThan(2_000);
    // A job cannot be queued: said at once, and the button is not left claimed.
    const testAll = await timed(() => call(server.baseUrl, "/api/channel/test", { headers: node.auth }));
    expect(testAll.value.json).toMatchObject({
      success: false,
      message: "后台任务队列暂时不可用（无法连接 Redis），请稍后重试",
    });
    expect(testAll.ms).toBeLessThan(2_000);
    const relay = await timed(() => chat(server.baseUrl, key));
    expect(relay.value.status).toBe(200);
    expect(relay.ms).toBeLessThan(2_000);
    // Relaying under load through the outage: every call answered.
    const statuses = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const got: number[] = [];
        for (let i = 0; i < 6; i += 1) got.push((await chat(server.baseUrl, key)).status);
        return got;
      }),
    );
    expect(statuses.flat().filter((s) => s !== 200)).toEqual([]);

    const degraded = await call(server.baseUrl, "/healthz");
    expect(degraded.status).toBe(200);
    expect(degraded.json).toMatchObject({ ok: false, db: { ok: true }, redis: { status: "degraded" } });

    // Redis back: the node reconnects by itself; its broadcasts go out and it hears others' again.
    await redis.start();
    expect(
      await eventually(async () => (await call(server.baseUrl, "/healthz")).json?.redis?.status === "ok", 10_000, 200),
    ).toBe(true);
    const again = new Redis(redis.url(0));
    again.on("pmessage", (_p: string, channel: string, message: string) => heard.push({ channel, message }));
    await again.psubscribe("switchyard:*");
    await call(server.baseUrl, "/api/option/", {
      method: "PUT",
      headers: node.auth,
      body: { key: "Notice", value: "after the outage" },
    });
    expect(await eventually(() => heard.some((h) => h.message.includes("after the outage")), 5_000)).toBe(true);
    const optionsChannel = heard.find((h) => h.message.includes("after the outage"))!.channel;
    expect(optionsChannel).toMatch(/^switchyard:[^:]+:options$/);
    // Another node of this deployment closes registration: this node hears it (resubscribed).
    const otherNode = new Redis(redis.url(0));
    await otherNode.publish(
      optionsChannel,
      `another-node|${JSON.stringify({ key: "RegisterEnabled", value: "false" })}`,
    );
    otherNode.disconnect();
    expect(
      await eventually(
        async () => {
          const res = await call(server.baseUrl, "/api/user/register", {
            method: "POST",
            body: { username: `r${Date.now() % 1e8}`, password: "password123" },
          });
          return res.json?.success === false && /注册/.test(res.json.message);
        },
        5_000,
        200,
      ),
    ).toBe(true);
    again.disconnect();
    expect(server.output()).toContain("[redis]");
    // The queue is back too: "test all channels" starts and the web process's own worker runs it.
    expect((await call(server.baseUrl, "/api/channel/test", { headers: node.auth })).json?.success).toBe(true);
    expect(
      await eventually(
        async () => {
          const progress = (await call(server.baseUrl, "/api/channel/test?progress=1", { headers: node.auth })).json
            ?.data;
          return progress?.running === false && progress?.done === 1;
        },
        15_000,
        200,
      ),
    ).toBe(true);

    // The money invariant: consumed quota = Σ logged quota, nothing held (PostgreSQL: read straight from the database).
    if (server.databaseUrl) {
      const relayCalls = 1 + 30; // the timed call and the load, all during the outage
      const db = new pg.Client({ connectionString: server.databaseUrl });
      db.on("error", () => undefined); // the database is dropped (force) at cleanup
      await db.connect();
      let figures: Record<string, number> = {};
      const settled = await eventually(
        async () => {
          const money = await moneySnapshot(db);
          figures = {
            relayCalls,
            usageLogs: money.logs,
            consumedQuota: 100_000_000 - money.quota,
            loggedQuota: money.logged,
            usedQuota: money.used,
            leased: money.leased,
            leaseSum: money.leaseSum,
          };
          return figures.usageLogs === figures.relayCalls && figures.leased === 0 && figures.leaseSum === 0;
        },
        15_000,
        250,
      );
      console.log(`[redis-outage figures] ${JSON.stringify(figures)}`);
      await db.end();
      expect(settled).toBe(true);
      expect(figures.consumedQuota).toBe(figures.loggedQuota);
      expect(figures.usedQuota).toBe(figures.loggedQuota);
    }
  }, 120_000);

  it("a node starts with REDIS_URL pointing at a dead port, serves, and reports Redis degraded", async () => {
    const upstream = await startOpenAiMock();
    upstreams.push(upstream);
    const deadPort = await freePort();
    const started = Date.now();
    const server = await startServer({ kind, env: { REDIS_URL: `redis://127.0.0.1:${deadPort}/0` }, worker: false });
    servers.push(server);
    console.log(`[redis-outage figures] node with Redis down ready in ${Date.now() - started} ms`);
    const health = await call(server.baseUrl, "/healthz");
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ db: { ok: true }, redis: { status: "degraded" } });
    const login = await timed(() =>
      call(server.baseUrl, "/api/user/login", { method: "POST", body: { username: "root", password: "123456" } }),
    );
    expect(login.value.json?.success).toBe(true);
    expect(login.ms).toBeLessThan(2_000);
    const node = await signIn(server.baseUrl);
    const key = await channelAndKey(node, upstream.url);
    expect((await chat(server.baseUrl, key)).status).toBe(200);
  }, 150_000);
});
