import { describe, expect, inject, it } from "vitest";
import pg from "pg";
import { fakeIp } from "../support/api";
import { startServer } from "../support/server";
import { call, eventually, signIn, sleep, stoppedAfterAll, type Node } from "../support/standalone";

/**
 * While PostgreSQL refuses new connections (maintenance with `allow_connections false`, a
 * database being restored, a failover still starting up), every surface says so: /api in its
 * envelope and console pages as a page, both 503 "try again", never a 500 or a dropped
 * connection; and all of them answer normally again as soon as the database is back.
 */
const kind = inject("dbKind");
const { servers } = stoppedAfterAll();

const API_MESSAGE = "数据库暂时不可用，请稍后重试";

type Surface = "api" | "page";
type Probe = {
  name: string;
  surface: Surface;
  send: () => Promise<{ status: number; text: string; contentType: string }>;
};
type Outcome = { probe: string; status: number; clean: boolean; why?: string };

/** A console request as a browser sends it: the session cookie only, HTML asked for. */
async function page(node: Node, path: string, form?: Record<string, string>) {
  const res = await fetch(node.baseUrl + path, {
    method: form ? "POST" : "GET",
    headers: {
      Cookie: node.auth.Cookie!,
      Accept: "text/html",
      "X-Forwarded-For": fakeIp(),
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") ?? "" };
}

async function api(node: Node, path: string, signedIn: boolean) {
  const res = await call(node.baseUrl, path, { headers: signedIn ? node.auth : {}, timeoutMs: 15_000 });
  return { status: res.status, text: res.text, contentType: res.res.headers.get("content-type") ?? "" };
}

/** Why an answer is not one a user can act on (undefined when it is): 200, or the surface's 503. */
function unclean(surface: Surface, answer: { status: number; text: string; contentType: string }): string | undefined {
  if (answer.status === 200) return undefined;
  if (answer.status !== 503) return `status ${answer.status}: ${answer.text.slice(0, 200)}`;
  if (surface === "api") {
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      return `503 without JSON: ${answer.text.slice(0, 200)}`;
    }
    return JSON.stringify(json) === JSON.stringify({ success: false, message: API_MESSAGE })
      ? undefined
      : `503 envelope ${answer.text}`;
  }
  if (!answer.contentType.startsWith("text/html")) return `503 page as ${answer.contentType}`;
  // The page names the database and asks to try again.
  if (!answer.text.includes("数据库暂时不可用") || !answer.text.includes("请稍后刷新重试"))
    return `503 page without the message: ${answer.text.slice(0, 300)}`;
  return undefined;
}

/** A started server, signed in as root, with one token of its own to reveal from the console. */
async function prepared() {
  const server = await startServer({ kind: "postgres", worker: false });
  servers.push(server);
  const node = await signIn(server.baseUrl);
  const made = await call(node.baseUrl, "/api/token/", {
    method: "POST",
    headers: node.auth,
    body: { name: "outage", unlimited_quota: true, remain_quota: 0, expired_time: -1 },
  });
  expect(made.json?.success, made.text).toBe(true);
  const tokenId = String(
    (await call(node.baseUrl, "/api/token/", { headers: node.auth })).json.data.find(
      (t: { name: string }) => t.name === "outage",
    ).id,
  );
  const probes: Probe[] = [
    { name: "GET /api/user/self", surface: "api", send: () => api(node, "/api/user/self", true) },
    { name: "GET /api/status", surface: "api", send: () => api(node, "/api/status", false) },
    { name: "GET /token", surface: "page", send: () => page(node, "/token") },
    { name: "GET /log", surface: "page", send: () => page(node, "/log") },
    { name: "GET /", surface: "page", send: () => page(node, "/") },
    {
      name: "POST /token (reveal)",
      surface: "page",
      send: () => page(node, "/token", { intent: "reveal", id: tokenId }),
    },
  ];
  // Every probe answers 200 while the database is up (so a 200 later means it really served).
  for (const probe of probes) expect((await probe.send()).status, probe.name).toBe(200);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  admin.on("error", () => undefined);
  await admin.connect();
  return { server, probes, admin, database: new URL(server.databaseUrl!).pathname.slice(1) };
}

/** Four clients cycling through the probes until the time is up; every answer recorded. */
async function hammer(probes: Probe[], ms: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const until = Date.now() + ms;
  const client = async (offset: number) => {
    for (let i = offset; Date.now() < until; i += 1) {
      const probe = probes[i % probes.length]!;
      try {
        const answer = await probe.send();
        const why = unclean(probe.surface, answer);
        outcomes.push({ probe: probe.name, status: answer.status, clean: !why, why });
      } catch (error) {
        outcomes.push({ probe: probe.name, status: 0, clean: false, why: (error as Error).message });
      }
    }
  };
  await Promise.all([0, 1, 2, 3].map(client));
  return outcomes;
}

function tallyOf(outcomes: Outcome[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const o of outcomes) tally[`${o.probe} ${o.status}`] = (tally[`${o.probe} ${o.status}`] ?? 0) + 1;
  return tally;
}

const terminateBackends = (admin: pg.Client, database: string) =>
  admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [
    database,
  ]);

describe.skipIf(kind !== "postgres")("PostgreSQL refusing connections", () => {
  it("every surface answers 200 or a clear 503 (never a 500), and 200 again once the database is back", async () => {
    const { probes, admin, database } = await prepared();
    let outcomes: Outcome[];
    try {
      await admin.query(`alter database ${database} allow_connections false`);
      await terminateBackends(admin, database);
      outcomes = await hammer(probes, 5_000);
    } finally {
      await admin.query(`alter database ${database} allow_connections true`);
    }
    console.log(`[refused connections] ${outcomes.length} requests: ${JSON.stringify(tallyOf(outcomes))}`);
    expect(outcomes.filter((o) => !o.clean).slice(0, 10)).toEqual([]);
    // The outage was real: every surface that reads the database said so.
    for (const probe of probes.filter((p) => p.name !== "GET /api/status")) {
      expect(
        outcomes.some((o) => o.probe === probe.name && o.status === 503),
        probe.name,
      ).toBe(true);
    }

    // Back: each surface answers 200 again within seconds, on new connections.
    for (const probe of probes) {
      expect(await eventually(async () => (await probe.send()).status === 200, 5_000, 100), probe.name).toBe(true);
    }
    await admin.end();
  }, 120_000);

  it("connections killed under load (pg_terminate_backend every 100 ms): console pages as well as /api answer 200 or a clear 503", async () => {
    const { probes, admin, database } = await prepared();
    let kills = 0;
    let done = false;
    const killer = async () => {
      while (!done) {
        await terminateBackends(admin, database);
        kills += 1;
        await sleep(100);
      }
    };
    const killing = killer();
    const outcomes = await hammer(probes, 6_000).finally(() => (done = true));
    await killing;
    console.log(
      `[killed connections] ${kills} sweeps, ${outcomes.length} requests: ${JSON.stringify(tallyOf(outcomes))}`,
    );
    expect(outcomes.filter((o) => !o.clean).slice(0, 10)).toEqual([]);
    // The sweeps did cut requests off (else this proved nothing), and cost only those requests.
    expect(outcomes.filter((o) => o.status === 503).length).toBeGreaterThan(0);
    for (const probe of probes) {
      expect(await eventually(async () => (await probe.send()).status === 200, 5_000, 100), probe.name).toBe(true);
    }
    await admin.end();
  }, 120_000);
});
