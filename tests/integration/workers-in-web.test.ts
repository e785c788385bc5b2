import { describe, expect, inject, it } from "vitest";
import pg from "pg";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { startServer } from "../support/server";
import { startTestRedis } from "../support/redis-server";
import { call, channelAndKey, chat, eventually, signIn, sleep, stoppedAfterAll } from "../support/standalone";

/**
 * With Redis, a web process runs the BullMQ workers itself (unless WORKERS=off),
 * so one `npm start` is complete; and a queued job nobody runs says so in the console instead
 * of "running" for an hour.
 */
const kind = inject("dbKind");
const { servers, upstreams, redises } = stoppedAfterAll();

describe("background jobs with Redis", () => {
  it("with WORKERS=off and no worker, a queued test-all shows as waiting for a worker; with workers on it runs", async () => {
    const redis = await startTestRedis();
    redises.push(redis);
    const upstream = await startOpenAiMock();
    upstreams.push(upstream);
    const idle = await startServer({
      kind,
      env: { REDIS_URL: redis.url(0), WORKERS: "off", JOB_PICKUP_WARN_SECONDS: "1" },
      worker: false,
    });
    servers.push(idle);
    const node = await signIn(idle.baseUrl);
    await channelAndKey(node, upstream.url);
    expect((await call(idle.baseUrl, "/api/channel/test", { headers: node.auth })).json?.success).toBe(true);
    await sleep(1_500);
    const progress = (await call(idle.baseUrl, "/api/channel/test?progress=1", { headers: node.auth })).json.data;
    expect(progress).toMatchObject({ running: true, waitingForWorker: true, done: 0 });
    const page = await fetch(`${idle.baseUrl}/channel`, { headers: { Cookie: node.auth.Cookie! } });
    const html = await page.text();
    expect(html).toContain("还没有后台任务进程接手");
    expect(html).not.toContain("正在测试所有通道");

    // The same single process with workers on (the default) runs the job itself.
    const complete = await startServer({
      kind,
      env: { REDIS_URL: redis.url(1), JOB_PICKUP_WARN_SECONDS: "1" },
      worker: false,
    });
    servers.push(complete);
    const other = await signIn(complete.baseUrl);
    await channelAndKey(other, upstream.url);
    expect((await call(complete.baseUrl, "/api/channel/test", { headers: other.auth })).json?.success).toBe(true);
    let done: any;
    expect(
      await eventually(
        async () => {
          done = (await call(complete.baseUrl, "/api/channel/test?progress=1", { headers: other.auth })).json.data;
          return !done.running && done.finishedAt > 0;
        },
        15_000,
        200,
      ),
    ).toBe(true);
    expect(done).toMatchObject({ total: 1, done: 1, waitingForWorker: false });
  }, 180_000);

  it.skipIf(kind !== "postgres")(
    "quota held by a SIGKILLed node comes back with no `npm run worker` running",
    async () => {
      const redis = await startTestRedis();
      redises.push(redis);
      const upstream = await startOpenAiMock();
      upstreams.push(upstream);
      upstream.fault = { kind: "hang" };
      const env = { REDIS_URL: redis.url(0), RECOVERY_SWEEP_SECONDS: "5" };
      const doomed = await startServer({ kind, env, worker: false });
      const survivor = await startServer({
        kind,
        env,
        worker: false,
        storage: { dataDir: doomed.dataDir, databaseUrl: doomed.databaseUrl },
      });
      servers.push(survivor, doomed); // the survivor stops first: the doomed one owns the storage
      const node = await signIn(doomed.baseUrl);
      const key = await channelAndKey(node, upstream.url);
      const db = new pg.Client({ connectionString: doomed.databaseUrl });
      db.on("error", () => undefined); // the database is dropped (force) at cleanup
      await db.connect();
      const held = async () => {
        const row = (await db.query("select quota, leased from users where username = 'root'")).rows[0];
        const leases = (await db.query("select count(*) as n, coalesce(sum(amount), 0) as s from quota_leases"))
          .rows[0];
        return {
          quota: Number(row.quota),
          leased: Number(row.leased),
          leases: Number(leases.n),
          leaseSum: Number(leases.s),
        };
      };
      const before = await held();

      void chat(doomed.baseUrl, key).catch(() => undefined);
      expect(await eventually(() => upstream.requests.length === 1, 5_000, 50)).toBe(true);
      const during = await held();
      expect(during.leased).toBeGreaterThan(0);
      await doomed.crash();
      const crashedAt = Date.now();

      // Nobody restarts the crashed node; the survivor's own worker runs the recovery sweep.
      expect(await eventually(async () => (await held()).leased === 0, 30_000, 250)).toBe(true);
      const after = await held();
      console.log(
        `[worker-crash figures] ${JSON.stringify({ heldAtCrash: during.leased, returnedAfterMs: Date.now() - crashedAt, before, after })}`,
      );
      expect(after).toMatchObject({ leased: 0, leases: 0, leaseSum: 0, quota: before.quota });
      expect(survivor.output()).toContain("processing background jobs");
      await db.end();
    },
    180_000,
  );
});
