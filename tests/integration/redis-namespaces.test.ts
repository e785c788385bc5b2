import { describe, expect, inject, it } from "vitest";
import { startServer } from "../support/server";
import { startTestRedis } from "../support/redis-server";
import { call, eventually, signIn, sleep, stoppedAfterAll } from "../support/standalone";

/**
 * Deployments sharing one Redis server stay apart. Pub/sub ignores the database
 * number, so before the deployment key one deployment's RegisterEnabled=false closed another's
 * registration.
 */
const kind = inject("dbKind");
const { servers, redises } = stoppedAfterAll();

async function registrationOpen(baseUrl: string): Promise<boolean> {
  const res = await call(baseUrl, "/api/user/register", {
    method: "POST",
    body: { username: `n${Math.random().toString(36).slice(2, 10)}`, password: "password123" },
  });
  return res.json?.success === true;
}

describe("deployments on one Redis server", () => {
  it("closing registration on one deployment leaves it open on others (/0 vs /1, and two databases on /0)", async () => {
    const redis = await startTestRedis();
    redises.push(redis);
    // Each server gets a database of its own (a scratch PostgreSQL database or a PGlite directory).
    const [a, b, c] = await Promise.all([
      startServer({ kind, env: { REDIS_URL: redis.url(0) }, worker: false }),
      startServer({ kind, env: { REDIS_URL: redis.url(1) }, worker: false }),
      startServer({ kind, env: { REDIS_URL: redis.url(0) }, worker: false }),
    ]);
    servers.push(a, b, c);
    for (const s of [a, b, c]) expect(await registrationOpen(s.baseUrl)).toBe(true);

    const rootA = await signIn(a.baseUrl);
    const saved = await call(a.baseUrl, "/api/option/", {
      method: "PUT",
      headers: rootA.auth,
      body: { key: "RegisterEnabled", value: "false" },
    });
    expect(saved.json?.success).toBe(true);
    expect(await registrationOpen(a.baseUrl)).toBe(false);
    // A broadcast reaches its listeners within milliseconds; give it a generous second.
    await sleep(1_000);
    expect(await registrationOpen(b.baseUrl)).toBe(true);
    expect(await registrationOpen(c.baseUrl)).toBe(true);
  }, 180_000);

  it.skipIf(kind !== "postgres")(
    "two nodes of one deployment still hear each other (same database, same Redis db)",
    async () => {
      const redis = await startTestRedis();
      redises.push(redis);
      const first = await startServer({ kind, env: { REDIS_URL: redis.url(2) }, worker: false });
      servers.push(first);
      const second = await startServer({
        kind,
        env: { REDIS_URL: redis.url(2) },
        worker: false,
        storage: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
      });
      servers.unshift(second); // stopped before the first, which drops the shared database
      expect(await registrationOpen(second.baseUrl)).toBe(true);
      const root = await signIn(first.baseUrl);
      await call(first.baseUrl, "/api/option/", {
        method: "PUT",
        headers: root.auth,
        body: { key: "RegisterEnabled", value: "false" },
      });
      expect(await eventually(async () => !(await registrationOpen(second.baseUrl)), 2_000, 100)).toBe(true);
    },
    120_000,
  );
});
