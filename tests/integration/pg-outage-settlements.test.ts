import { describe, expect, inject, it } from "vitest";
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { startServer } from "../support/server";
import { moneySnapshot } from "../support/money-snapshot";
import { call, channelAndKey, chat, eventually, signIn, sleep, stoppedAfterAll } from "../support/standalone";

/**
 * A PostgreSQL outage (a restart, a failover) while calls are being served: the database
 * refuses every connection for 20 s, then comes back. Calls answered meanwhile were charged in
 * the settlement journal; the writer must wait the database out and write every one of them —
 * nothing set aside in the quarantine for a refused connection, nothing charged twice.
 */
const kind = inject("dbKind");
const { servers, upstreams } = stoppedAfterAll();

const CLIENTS = 16;
const OUTAGE_MS = 20_000;

function quarantinedLines(dataDir: string): number {
  const dir = join(dataDir, "journal", "quarantine");
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).length;
}

describe.skipIf(kind !== "postgres")("a 20 s PostgreSQL outage under relay load", () => {
  it("every call answered 200 is logged once and charged once; nothing is quarantined; /healthz recovers", async () => {
    const upstream = await startOpenAiMock();
    upstreams.push(upstream);
    const server = await startServer({ kind: "postgres", env: { BILLING_FLUSH_DELAY_MS: "50" }, worker: false });
    servers.push(server);
    const node = await signIn(server.baseUrl);
    const key = await channelAndKey(node, upstream.url);
    const database = new URL(server.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    admin.on("error", () => undefined);
    await admin.connect();
    const reader = () => {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      client.on("error", () => undefined);
      return client;
    };
    const balances = async () => {
      const client = reader();
      await client.connect();
      try {
        return await moneySnapshot(client);
      } finally {
        await client.end();
      }
    };
    // The first call leases a slice of the balance, so the outage starts with calls to serve.
    expect((await chat(server.baseUrl, key)).status).toBe(200);
    let before = await balances();
    expect(await eventually(async () => (before = await balances()).logs === 1, 5_000)).toBe(true);

    const statuses = new Map<number, number>();
    const answeredIds: string[] = [];
    let stop = false;
    const client = async () => {
      while (!stop) {
        try {
          const res = await chat(server.baseUrl, key);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 200) answeredIds.push(res.headers.get("x-oneapi-request-id") ?? "");
          await res.arrayBuffer();
          if (res.status !== 200) await sleep(50);
        } catch {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
        }
      }
    };
    const load = Array.from({ length: CLIENTS }, client);
    await sleep(1_000);
    const servedBefore = answeredIds.length;
    let healthDuring: any;
    try {
      await admin.query(`alter database ${database} allow_connections false`);
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [database],
      );
      await sleep(OUTAGE_MS / 2);
      healthDuring = (await call(server.baseUrl, "/healthz", { timeoutMs: 10_000 })).json;
      await sleep(OUTAGE_MS / 2);
    } finally {
      await admin.query(`alter database ${database} allow_connections true`);
    }
    const servedDuring = answeredIds.length - servedBefore;
    await sleep(2_000);
    stop = true;
    await Promise.all(load);
    const answered = answeredIds.length;

    // Everything journaled reaches the database once it answers again.
    let after = await balances();
    const caughtUp = await eventually(
      async () => {
        after = await balances();
        return after.logs - before.logs >= answered;
      },
      60_000,
      250,
    );
    const health = await call(server.baseUrl, "/healthz");
    const figures = {
      clients: CLIENTS,
      outageSeconds: OUTAGE_MS / 1000,
      answered200: answered,
      answeredDuringOutage: servedDuring,
      statuses: Object.fromEntries(statuses),
      logged: after.logs - before.logs,
      distinctRequestIds: after.requestIds - before.requestIds,
      quarantined: quarantinedLines(server.dataDir),
      chargedQuota: after.used - before.used,
      loggedQuota: after.logged - before.logged,
      balanceDrop: before.quota - after.quota,
      writerWaitingDuringOutage: healthDuring?.journal?.backlog,
      longestSettlementWaitMs: health.json?.journal?.backlog?.longestWaitMs,
    };
    console.log(`[outage figures] ${JSON.stringify(figures)}`);
    await admin.end();

    expect(caughtUp).toBe(true);
    // Calls that could not be served were refused with a 503 (try again), never a 500 or a dropped connection.
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    // The outage was felt: the writer said it waits, with charges in hand, while answers went on.
    expect(servedDuring).toBeGreaterThan(0);
    expect(healthDuring?.journal?.backlog?.waitingMs).toBeGreaterThan(0);
    expect(figures.longestSettlementWaitMs).toBeGreaterThanOrEqual(OUTAGE_MS / 2);
    // Every answered call logged once, charged once, none set aside.
    expect(figures.quarantined).toBe(0);
    expect(figures.logged).toBe(answered);
    expect(figures.distinctRequestIds).toBe(answered);
    expect(figures.chargedQuota).toBe(figures.loggedQuota);
    expect(figures.balanceDrop).toBe(figures.loggedQuota);
    expect(new Set(answeredIds).size).toBe(answered);
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ ok: true, journal: { ok: true, quarantined: 0, backlog: { queued: 0 } } });
  }, 180_000);
});
