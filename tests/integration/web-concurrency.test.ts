import { describe, expect, inject, it } from "vitest";
import { execFileSync } from "node:child_process";
import { request } from "node:http";
import pg from "pg";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { parsePrometheus, sumOf } from "../support/prometheus";
import { startServer } from "../support/server";
import { call, channelAndKey, eventually, signIn, stoppedAfterAll } from "../support/standalone";

/**
 * WEB_CONCURRENCY: several web processes on one port, sharing what they must through PostgreSQL
 * and Redis. Every request here goes on a connection of its own, so the cluster spreads them
 * over the processes as it would spread many clients.
 */
const kind = inject("dbKind");
const started = stoppedAfterAll();

/** One request on a fresh connection (no keep-alive): the cluster picks a process for it. */
function fresh(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(
      `${baseUrl}${path}`,
      {
        method: init.method ?? "GET",
        agent: false,
        headers: { "Content-Type": "application/json", ...init.headers },
        timeout: 20_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end(body);
  });
}

const chatBody = { model: "gpt-4o-mini", max_tokens: 100, messages: [{ role: "user", content: "hi" }] };

function childPids(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.runIf(kind === "postgres")("several web processes on one port", () => {
  it("serve one deployment: sessions, cache invalidations and charges hold across them; a killed one is replaced and its lease returned", async () => {
    const upstream = await startOpenAiMock();
    started.upstreams.push(upstream);
    // A fresh data directory: both processes find no server secret and must end up with the same one.
    const server = await startServer({
      kind,
      env: { WEB_CONCURRENCY: "2", RECOVERY_SWEEP_SECONDS: "5", METRICS_TOKEN: "scrape" },
      worker: false,
    });
    started.servers.push(server);
    expect(await eventually(() => (server.output().match(/listening on/g) ?? []).length === 2, 60_000)).toBe(true);
    expect(server.output()).toContain("starting 2 web processes");
    expect(childPids(server.pid)).toHaveLength(2);
    // Background jobs run in one of them, not in both.
    expect(await eventually(() => server.output().includes("processing background jobs"), 30_000)).toBe(true);
    expect(server.output().match(/processing background jobs/g)).toHaveLength(1);

    const node = await signIn(server.baseUrl);
    // The session cookie one process signed is good on every process (one shared server secret).
    const selves = await Promise.all(
      Array.from({ length: 12 }, () => fresh(server.baseUrl, "/api/user/self", { headers: node.auth })),
    );
    expect(selves.map((r) => r.status)).toEqual(Array(12).fill(200));

    const key = await channelAndKey(node, upstream.url);
    const quotaOf = async () =>
      (await call(server.baseUrl, "/api/user/self", { headers: node.auth })).json.data.quota as number;
    const before = await quotaOf();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        fresh(server.baseUrl, "/v1/chat/completions", {
          method: "POST",
          headers: { Authorization: `Bearer ${key}` },
          body: chatBody,
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));

    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      // Both processes are nodes of the deployment, each with its own lease and journal.
      const nodes = await db.query("select count(distinct node_id)::int as n from billing_journals");
      expect(nodes.rows[0].n).toBe(2);
      // Every call charged once, whichever process served it.
      expect(
        await eventually(async () => {
          const logs = await db.query(
            "select count(*)::int as n, coalesce(sum(quota), 0)::bigint as q from logs where type = 2",
          );
          return logs.rows[0].n === 20 && (await quotaOf()) === before - Number(logs.rows[0].q);
        }, 10_000),
      ).toBe(true);

      // A scrape reaches one process and reports the deployment: the primary sums every process's metrics.
      for (let i = 0; i < 4; i += 1) {
        const scrape = await fresh(server.baseUrl, "/metrics", { headers: { Authorization: "Bearer scrape" } });
        expect(scrape.status).toBe(200);
        expect(
          sumOf(parsePrometheus(scrape.text), "switchyard_relay_requests_total", { surface: "chat", code: "200" }),
        ).toBe(20);
      }

      // A token disabled through one process is refused by all of them at once (Redis pub/sub).
      const tokens = (await call(server.baseUrl, "/api/token/", { headers: node.auth })).json.data as { id: number }[];
      const disabled = await call(server.baseUrl, "/api/token/?status_only=true", {
        method: "PUT",
        headers: node.auth,
        body: { id: tokens[0]!.id, status: 2 },
      });
      expect(disabled.json.success).toBe(true);
      const refused = await Promise.all(
        Array.from({ length: 12 }, () =>
          fresh(server.baseUrl, "/v1/chat/completions", {
            method: "POST",
            headers: { Authorization: `Bearer ${key}` },
            body: chatBody,
          }),
        ),
      );
      expect(refused.map((r) => r.status)).toEqual(Array(12).fill(401));
      await call(server.baseUrl, "/api/token/?status_only=true", {
        method: "PUT",
        headers: node.auth,
        body: { id: tokens[0]!.id, status: 1 },
      });
      // The change drained the leases; calls in both processes take new ones.
      const again = await Promise.all(
        Array.from({ length: 10 }, () =>
          fresh(server.baseUrl, "/v1/chat/completions", {
            method: "POST",
            headers: { Authorization: `Bearer ${key}` },
            body: chatBody,
          }),
        ),
      );
      expect(again.map((r) => r.status)).toEqual(Array(10).fill(200));

      // kill -9 one process while it holds a quota lease: another takes its place, the lease
      // goes back to the payer, and calls go on being served and charged.
      const [victim, survivor] = childPids(server.pid);
      const leasedBy = async (pid: number) =>
        Number(
          (await db.query("select count(*)::int as n from quota_leases where node_id like $1", [`%:${pid}:%`])).rows[0]
            .n,
        );
      expect((await leasedBy(victim!)) + (await leasedBy(survivor!))).toBeGreaterThan(0);
      process.kill(victim!, "SIGKILL");
      expect(await eventually(() => server.output().includes(`(pid ${victim}) exited (SIGKILL)`), 10_000)).toBe(true);
      expect(
        await eventually(() => childPids(server.pid).length === 2 && !childPids(server.pid).includes(victim!), 30_000),
      ).toBe(true);
      expect(await eventually(async () => (await leasedBy(victim!)) === 0, 30_000)).toBe(true);
      expect(await eventually(() => (server.output().match(/listening on/g) ?? []).length === 3, 60_000)).toBe(true);
      const after = await Promise.all(
        Array.from({ length: 10 }, () =>
          fresh(server.baseUrl, "/v1/chat/completions", {
            method: "POST",
            headers: { Authorization: `Bearer ${key}` },
            body: chatBody,
          }),
        ),
      );
      expect(after.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(
        await eventually(
          async () => (await db.query("select count(*)::int as n from logs where type = 2")).rows[0].n === 40,
          10_000,
        ),
      ).toBe(true);
    } finally {
      await db.end();
    }

    // SIGTERM to the primary stops every web process.
    const children = childPids(server.pid);
    await server.stop();
    expect(children.filter(alive)).toEqual([]);
  }, 180_000);

  it("a deployment that cannot start stops instead of restarting its processes forever", async () => {
    await expect(
      startServer({ kind, env: { WEB_CONCURRENCY: "2", RECOVERY_SWEEP_SECONDS: "1" }, worker: false }),
    ).rejects.toThrow(/failed to start \(code 1\); stopping/);
  }, 60_000);

  it("without Redis an explicit WEB_CONCURRENCY runs one process and says why", async () => {
    const server = await startServer({ kind, env: { WEB_CONCURRENCY: "2", REDIS_URL: "" }, worker: false });
    started.servers.push(server);
    expect(server.output()).toContain("WEB_CONCURRENCY=2 needs REDIS_URL");
    expect(childPids(server.pid)).toEqual([]);
    expect((await fresh(server.baseUrl, "/api/status")).status).toBe(200);
  }, 60_000);
});
