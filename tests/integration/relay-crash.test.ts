import { afterAll, describe, expect, inject, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { call, signIn, type Node } from "../support/standalone";
import { createScratchDatabase, startServer, type StartedServer } from "../support/server";
import pg from "pg";

/**
 * Crashes: the server is SIGKILLed (1) while a request holds quota from its lease — the lease
 * goes back to the payer at the next start — and (2) after replies were delivered but before
 * their charges reached the database — the next start writes them from the local journal.
 */
const kind = inject("dbKind");
const servers: StartedServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const c of cleanups) await c();
});

/** A fresh node's storage (data dir + database), a channel to the mock and an unlimited token. */
async function firstLife(upstreamUrl: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "switchyard-crash-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const scratch = kind === "postgres" ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
  if (scratch) cleanups.push(scratch.drop);
  const storage = { dataDir, databaseUrl: scratch?.url };
  const server = await startServer({ kind, env, storage });
  servers.push(server);
  const node = await signIn(server.baseUrl);
  await call(node.baseUrl, "/api/channel/", {
    method: "POST",
    headers: node.auth,
    body: { type: 1, name: "c", key: "k", base_url: upstreamUrl, models: "gpt-4o-mini" },
  });
  await call(node.baseUrl, "/api/token/", {
    method: "POST",
    headers: node.auth,
    body: { name: "t", unlimited_quota: true, remain_quota: 0, expired_time: -1 },
  });
  const tokenId = (await call(node.baseUrl, "/api/token/", { headers: node.auth })).json.data[0].id;
  const key = (await call(node.baseUrl, `/api/token/${tokenId}/key`, { headers: node.auth })).json.data.key as string;
  const quota = async (n: Node) =>
    (await call(n.baseUrl, "/api/user/self", { headers: n.auth })).json.data.quota as number;
  return { server, node, storage, key, quota, scratch };
}

function chat(baseUrl: string, key: string, stream = false) {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      model: "gpt-4o-mini",
      max_tokens: 1000,
      stream,
      messages: [{ role: "user", content: "hi" }],
    }),
  });
}

/** Reads a stream reply until its first event, then leaves it open (the crash cuts it). */
async function firstEventOf(reply: Response): Promise<string> {
  const reader = reply.body!.getReader();
  const { value } = await reader.read();
  void (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {}
  })();
  return new TextDecoder().decode(value);
}

/**
 * Three replies delivered whose charges sit only in the journal (a flush every 10 minutes), then
 * the process is killed: what the next start must write from the journal.
 */
async function threeRepliesThenCrash(prefix: string) {
  const upstream = await startOpenAiMock();
  const nodeEnv = { NODE_ID: `${prefix}-${Date.now()}`, BILLING_FLUSH_DELAY_MS: "600000" };
  const { server: first, node, storage, key, quota } = await firstLife(upstream.url, nodeEnv);
  const before = await quota(node);
  for (let i = 0; i < 3; i += 1) expect((await chat(first.baseUrl, key)).status).toBe(200);
  await first.crash();
  return { upstream, nodeEnv, storage, quota, before };
}

/** The next start of the crashed node writes its three journaled charges: logged once, taken from the balance. */
async function restartWritesThree(crashed: Awaited<ReturnType<typeof threeRepliesThenCrash>>) {
  const second = await startServer({ kind, env: { NODE_ID: crashed.nodeEnv.NODE_ID }, storage: crashed.storage });
  servers.push(second);
  expect(second.output()).toContain("3 journaled settlements written");
  const again = await signIn(second.baseUrl);
  const logs = (await call(second.baseUrl, "/api/log/self?type=2", { headers: again.auth })).json.data;
  expect(logs.items).toHaveLength(3);
  const logged = logs.items.reduce((sum: number, row: { quota: number }) => sum + row.quota, 0);
  expect(logged).toBeGreaterThan(0);
  expect(await crashed.quota(again)).toBe(crashed.before - logged);
  return { second, again, logged };
}

describe("crashes", () => {
  it("a request in flight at the crash costs nothing: its lease goes back at the next start", async () => {
    const upstream = await startOpenAiMock();
    upstream.fault = { kind: "hang" };
    // Both lives of the node share its storage and its name.
    const nodeEnv = { NODE_ID: `crash-${Date.now()}` };
    const { server: first, node, storage, key, quota, scratch } = await firstLife(upstream.url, nodeEnv);
    const before = await quota(node);

    void chat(first.baseUrl, key).catch(() => undefined);
    for (let i = 0; i < 50 && upstream.requests.length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(upstream.requests).toHaveLength(1);
    // The balance shown is the whole balance; what the node's lease holds of it is apart.
    expect(await quota(node)).toBe(before);

    if (scratch) {
      const db = new pg.Client({ connectionString: scratch.url });
      await db.connect();
      const leased = async () =>
        Number((await db.query("select leased from users where username = 'root'")).rows[0].leased);
      expect(await leased()).toBeGreaterThan(0);
      // A second process of the same node name on the same database (a worker, another web
      // process) must leave the live process's lease alone when it boots.
      const peer = await startServer({ kind, env: nodeEnv, storage });
      for (let i = 0; i < 200 && !peer.output().includes("processing background jobs"); i += 1)
        await new Promise((r) => setTimeout(r, 100));
      expect(peer.output()).toContain("processing background jobs"); // its worker booted too
      expect(peer.output()).not.toContain("recovered from an earlier stop");
      const held = await leased();
      expect(held).toBeGreaterThan(0);
      await peer.stop();

      await first.crash();
      const second = await startServer({ kind, env: nodeEnv, storage });
      servers.push(second);
      expect(second.output()).toContain("1 quota leases returned");
      expect(await leased()).toBe(0);
      expect(Number((await db.query("select count(*) as n from quota_leases")).rows[0].n)).toBe(0);
      await db.end();
      expect(await quota(await signIn(second.baseUrl))).toBe(before);
    } else {
      await first.crash();
      const second = await startServer({ kind, env: nodeEnv, storage });
      servers.push(second);
      expect(second.output()).toContain("1 quota leases returned");
      expect(await quota(await signIn(second.baseUrl))).toBe(before);
    }
    await upstream.close();
  }, 120_000);

  it("replies delivered before the crash are charged and logged once, from the journal", async () => {
    const crashed = await threeRepliesThenCrash("journal");
    const { upstream, nodeEnv, storage, quota, before } = crashed;

    const { second, logged } = await restartWritesThree(crashed);

    // A second restart finds nothing left to write: the journal was written exactly once.
    await second.stop();
    const third = await startServer({ kind, env: { NODE_ID: nodeEnv.NODE_ID }, storage });
    servers.push(third);
    expect(third.output()).not.toContain("journaled settlements written");
    expect(await quota(await signIn(third.baseUrl))).toBe(before - logged);
    await upstream.close();
  }, 120_000);

  it("kill -9 with streams mid-flight: consumed quota equals the logged quota and nothing stays held", async () => {
    const upstream = await startOpenAiMock();
    const nodeEnv = { NODE_ID: `stream-crash-${Date.now()}`, BILLING_FLUSH_DELAY_MS: "600000" };
    const { server: first, node, storage, key, quota, scratch } = await firstLife(upstream.url, nodeEnv);
    const before = await quota(node);
    // Finished calls whose charges sit only in the journal, then streams cut by the crash.
    for (let i = 0; i < 4; i += 1) expect((await chat(first.baseUrl, key)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect(await (await chat(first.baseUrl, key, true)).text()).toContain("[DONE]");
    upstream.fault = { kind: "slow-stream", gapMs: 10_000 };
    const open = await Promise.all(Array.from({ length: 6 }, () => chat(first.baseUrl, key, true)));
    const firsts = await Promise.all(open.map(firstEventOf));
    expect(firsts.every((text) => text.startsWith("data: "))).toBe(true);
    await first.crash();

    const second = await startServer({ kind, env: { NODE_ID: nodeEnv.NODE_ID }, storage });
    servers.push(second);
    const again = await signIn(second.baseUrl);
    const logs = (await call(second.baseUrl, "/api/log/self?type=2", { headers: again.auth })).json.data;
    const logged = logs.items.reduce((sum: number, row: { quota: number }) => sum + row.quota, 0);
    const consumed = before - (await quota(again));
    let held = 0;
    if (scratch) {
      const db = new pg.Client({ connectionString: scratch.url });
      await db.connect();
      const row = (
        await db.query(
          "select (select leased from users where username = 'root') as leased, (select coalesce(sum(amount), 0) from quota_leases) as leases",
        )
      ).rows[0];
      held = Number(row.leased) + Number(row.leases);
      await db.end();
    }
    console.log(
      `[figures] kill -9 during streaming (${kind}): 6 finished calls, 6 streams cut; consumed ${consumed}, logged ${logged} over ${logs.items.length} rows, held after restart ${held}`,
    );
    expect(logs.items).toHaveLength(6);
    expect(logged).toBeGreaterThan(0);
    expect(consumed).toBe(logged);
    expect(held).toBe(0);
    await upstream.close();
  }, 120_000);

  it("a bad journal line is quarantined and the start goes on, replaying the good lines exactly", async () => {
    const crashed = await threeRepliesThenCrash("poison");
    const { upstream, storage } = crashed;

    // What an earlier version journaled from an upstream's `"prompt_tokens":"abc"`, and a line
    // the disk garbled, between the good ones.
    const dir = join(storage.dataDir, "journal");
    const file = join(
      dir,
      readdirSync(dir).find((name) => name.endsWith(".jsonl"))!,
    );
    const [header, ...settled] = readFileSync(file, "utf8").split("\n").filter(Boolean);
    expect(settled).toHaveLength(3);
    const poisoned = JSON.parse(settled[1]!) as { seq: number; charge: number; log: { promptTokens: unknown } };
    poisoned.seq = 2;
    poisoned.charge = null as never;
    poisoned.log.promptTokens = "abc";
    const bad = JSON.stringify(poisoned);
    const renumbered = settled.map((line, i) => JSON.stringify({ ...JSON.parse(line), seq: i < 1 ? 1 : i + 3 }));
    writeFileSync(
      file,
      [header, renumbered[0], bad, "\u0000\u0000garbled", renumbered[1], renumbered[2], ""].join("\n"),
    );

    const { second, again } = await restartWritesThree(crashed);
    expect(second.output()).toContain("quarantined");

    // Both bad lines are kept, raw, with their reasons; the journal itself is gone.
    const quarantineDir = join(dir, "quarantine");
    const kept = readdirSync(quarantineDir).flatMap((name) =>
      readFileSync(join(quarantineDir, name), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
    expect(kept.map((entry) => entry.line)).toEqual([bad, "\u0000\u0000garbled"]);
    expect(kept[0].reason).toContain("charge");
    expect(existsSync(file)).toBe(false);
    // …and /healthz tells the operator.
    const health = (await (await fetch(`${second.baseUrl}/healthz`)).json()) as {
      journal: { ok: boolean; quarantined: number };
    };
    expect(health.journal).toMatchObject({ ok: false, quarantined: 2 });

    // Root sees it on the console.
    const page = await fetch(`${second.baseUrl}/log`, { headers: { Cookie: again.auth.Cookie! } });
    const html = await page.text();
    expect(html).toContain("有 2 条结算记录无法写入数据库");
    expect(html).toContain(quarantineDir);
    // An ordinary user does not.
    const username = `q${Date.now() % 1_000_000}`;
    expect(
      (
        await call(second.baseUrl, "/api/user/register", {
          method: "POST",
          body: { username, password: "password123", password2: "password123" },
        })
      ).json.success,
    ).toBe(true);
    const login = await call(second.baseUrl, "/api/user/login", {
      method: "POST",
      body: { username, password: "password123" },
    });
    const userCookie = (login.res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const userPage = await (await fetch(`${second.baseUrl}/log`, { headers: { Cookie: userCookie } })).text();
    expect(userPage).toContain(username);
    expect(userPage).not.toContain("结算记录无法写入数据库");
    await upstream.close();
  }, 120_000);
});
