/**
 * Log pages and log APIs at scale: a scratch PostgreSQL database with a month of usage logs
 * (10 M rows by default, 10 k users, a tenth of the rows root's), rolled up with this tree's own
 * rollup code, then p50/p95 of every log page and API, with and without filters, warm.
 *
 *   npm run bench:logs                       (DATABASE_URL defaults to the local postgres server)
 *   npm run bench:logs -- --rows 1000000     a quicker run
 *   --keep                                   keep the seeded database (its URL is printed)
 *   --db <url>                               reuse a database seeded by an earlier --keep run
 *   --cwd <dir>                              run the build in <dir> (e.g. a checkout of main: "before")
 *   --n <requests>                           timed requests per case (default 20, after 3 warm-ups)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { ensureLogPartitions, migrateToLatest } from "../db/connect";
import type { DB } from "../db/schema";
import { createScratchDatabase, startServer } from "../tests/support/server";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const value = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const ROWS = Number(value("rows") ?? 10_000_000);
const USERS = 10_000;
const N = Number(value("n") ?? 20);
const WARMUP = 3;
const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const MODELS = [
  "gpt-4o-mini",
  "gpt-4o",
  "claude-3-5-sonnet",
  "claude-3-haiku",
  "gemini-1.5-pro",
  "deepseek-chat",
  "qwen-max",
  "o1-mini",
];
/** Cumulative shares (of 100) of the models above: a few models carry most of the traffic. */
const MODEL_SHARES = [40, 60, 72, 80, 87, 93, 97, 100];

const now = () => Math.floor(Date.now() / 1000);
const log = (line: string) => console.log(`[bench:logs ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Users, then the logs with the table's indexes dropped and rebuilt afterwards (much faster than indexing row by row). */
async function seed(url: string): Promise<void> {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  await migrateToLatest(db);
  await ensureLogPartitions(db);
  await db.destroy();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set synchronous_commit = off; set maintenance_work_mem = '512MB'");
    const hash = bcrypt.hashSync("123456", 10);
    await client.query(
      `insert into users (id, username, password_hash, display_name, role, quota, "group")
       select u, case when u = 1 then 'root' else 'u' || u end, $1, case when u = 1 then 'Root User' else 'u' || u end,
              case when u = 1 then 100 else 1 end, 100000000, case when u % 10 = 3 then 'vip' else 'default' end
       from generate_series(1, ${USERS}) u`,
      [hash],
    );
    await client.query(`select setval(pg_get_serial_sequence('users', 'id'), ${USERS})`);
    // The bench rolls up itself (rollUp below); the scheduled job stays off while it measures.
    await client.query(
      `insert into options (key, value) values ('DataExportEnabled', 'false') on conflict (key) do update set value = excluded.value`,
    );
    const indexes = (
      await client.query<{ indexname: string; indexdef: string }>(
        "select indexname, indexdef from pg_indexes where tablename = 'logs' and indexname not like '%pkey'",
      )
    ).rows;
    for (const index of indexes) await client.query(`drop index ${index.indexname}`);
    const end = now() - 120;
    const span = 30 * 86400;
    const modelCase = MODEL_SHARES.map((share, i) => `when (g * 31) % 100 < ${share} then '${MODELS[i]}'`).join(" ");
    const chunk = 1_000_000;
    for (let from = 1; from <= ROWS; from += chunk) {
      const to = Math.min(ROWS, from + chunk - 1);
      // One month, oldest first (ids grow with time, as in service). Every tenth row is root's;
      // the rest spread over users 2..10000. Mostly consumption, a few top-up/management/system rows.
      await client.query(`
        insert into logs (created_at, type, content, user_id, username, token_name, token_id, model_name, quota,
                          prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", other)
        select ${end - span} + (g::bigint * ${span}) / ${ROWS},
               case when g % 5000 = 0 then 1 when g % 5003 = 0 then 3 when g % 20011 = 0 then 4 else 2 end,
               '模型倍率 2.00，补全倍率 3.00，分组倍率 1.00', u, case when u = 1 then 'root' else 'u' || u end,
               'tok-' || u || '-' || (g % 3), u * 3 + g % 3, case ${modelCase} end,
               ((100 + g * 13 % 2000) + (g * 7 % 800) * 3) * 2, 100 + g * 13 % 2000, g * 7 % 800, g % 12, g % 2 = 0,
               1 + (g * 17) % 20, case when u % 10 = 3 then 'vip' else 'default' end,
               '{"model_ratio":2,"group_ratio":1,"completion_ratio":3,"model_price":-1,"frt":-1000,"admin_info":{"use_channel":["' || (1 + (g * 17) % 20) || '"]}}'
        from generate_series(${from}::bigint, ${to}::bigint) g,
             lateral (select case when g % 10 = 0 then 1 else 2 + ((g * 7919) % ${USERS - 1})::int end as u) x`);
      log(`seeded ${to.toLocaleString("en")} / ${ROWS.toLocaleString("en")} rows`);
    }
    // pg_indexes spells a partitioned index "ON ONLY logs" (parent only); built plainly it covers every partition.
    for (const index of indexes) await client.query(index.indexdef.replace(" ON ONLY ", " ON "));
    await client.query("vacuum analyze logs");
    await client.query("analyze users");
    log(`indexes rebuilt, logs vacuumed and analyzed`);
  } finally {
    await client.end();
  }
}

/**
 * Rolls the seeded month up with this tree's own rollup code (what the scheduled job runs), a
 * month per call, before the server starts. The scheduled job itself stays off (seed), so no run
 * lands in the middle of the measurements.
 */
async function rollUp(url: string): Promise<void> {
  Object.assign(process.env, { DATABASE_URL: url, REDIS_URL: "" });
  const { rollUpUsage, readRollupProgress } = await import("../app/domain/usage/rollups.server");
  const currentHour = Math.floor(now() / 3600) * 3600;
  for (let runs = 0; runs < 6; runs += 1) {
    const progress = await readRollupProgress();
    if (progress && progress.rolledUntil >= currentHour) break;
    const run = await rollUpUsage();
    log(
      `rollup: ${run.rows.toLocaleString("en")} hourly rows for ${new Date(run.from * 1000).toISOString()}..${new Date(run.to * 1000).toISOString()}`,
    );
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("vacuum analyze quota_data");
  await client.end();
}

type Session = { cookie: string; id: number };

async function signIn(baseUrl: string, username: string): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/user/login`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Forwarded-For": `10.251.${process.pid % 250}.${username.length}`,
    },
    body: JSON.stringify({ username, password: "123456" }),
  });
  const body = (await res.json()) as { success: boolean; message: string; data: { id: number } };
  if (!body.success) throw new Error(`sign-in of ${username} failed: ${body.message}`);
  return { cookie: (res.headers.get("set-cookie") ?? "").split(";")[0]!, id: body.data.id };
}

type Case = { label: string; who: "root" | "user"; path: string };

async function measure(
  baseUrl: string,
  session: Session,
  path: string,
): Promise<{ p50: number; p95: number; status: string }> {
  const times: number[] = [];
  let status = "";
  for (let i = 0; i < WARMUP + N; i += 1) {
    const started = process.hrtime.bigint();
    const res = await fetch(baseUrl + path, {
      headers: { Cookie: session.cookie, "New-Api-User": String(session.id) },
    });
    const body = await res.text();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (i >= WARMUP) times.push(ms);
    const ok =
      res.status === 200 && !(path.startsWith("/api/") && !path.includes("export") && !body.includes('"success":true'));
    status = ok ? "ok" : `${res.status} ${body.slice(0, 60)}`;
  }
  times.sort((a, b) => a - b);
  const pick = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? 0;
  return { p50: pick(0.5), p95: pick(0.95), status };
}

const keep = flag("keep");
const reuse = value("db");
const scratch = reuse ? { url: reuse, drop: async () => undefined } : await createScratchDatabase(adminUrl);
const started = Date.now();
if (!reuse) {
  log(`seeding ${ROWS.toLocaleString("en")} log rows into ${scratch.url}`);
  await seed(scratch.url);
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} else {
  // A reused database gets this build's migrations first (new indexes take a while on millions
  // of rows; the server's start-up would otherwise wait for them).
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: reuse, max: 1 }) }),
  });
  const migrating = Date.now();
  const applied = await migrateToLatest(db);
  await db.destroy();
  log(
    `reusing ${reuse}${applied.length ? `; applied ${applied.join(", ")} in ${((Date.now() - migrating) / 1000).toFixed(0)} s` : ""}`,
  );
}
const rollupStarted = Date.now();
await rollUp(scratch.url);
log(`rolled up in ${((Date.now() - rollupStarted) / 1000).toFixed(0)} s`);
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-bench-logs-"));
const server = await startServer({
  kind: "postgres",
  cwd: value("cwd"),
  storage: { dataDir, databaseUrl: scratch.url },
  env: { REDIS_URL: "" },
});
try {
  const root = await signIn(server.baseUrl, "root");
  const user = await signIn(server.baseUrl, "u2");
  const probe = await fetch(`${server.baseUrl}/api/log/search?keyword=u2`, {
    headers: { Cookie: root.cookie, "New-Api-User": String(root.id) },
  });
  const current = probe.status === 200 && ((await probe.json()) as { success: boolean }).success;
  // The 500th page of ten by keyset (what the page's "next" links lead to): the cursor of the row just above it.
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  const above = (
    await client.query("select created_at, id from logs order by created_at desc, id desc offset 4989 limit 1")
  ).rows[0] as { created_at: number; id: number };
  const aboveModel = (
    await client.query(
      "select created_at, id from logs where model_name = 'gpt-4o' order by created_at desc, id desc offset 4989 limit 1",
    )
  ).rows[0] as { created_at: number; id: number };
  await client.end();
  const dayAgo = now() - 86400;
  const cases: Case[] = [
    { label: "/log admin, no filter", who: "root", path: "/log" },
    { label: "/log admin, model filter", who: "root", path: "/log?model_name=gpt-4o" },
    { label: "/log admin, user filter", who: "root", path: "/log?username=u2" },
    { label: "/log admin, token filter", who: "root", path: "/log?token_name=tok-2-1" },
    { label: "/log admin, channel filter", who: "root", path: "/log?channel=7" },
    { label: "/log admin, type 3 (management)", who: "root", path: "/log?type=3" },
    { label: "/log admin, page 500 (?p=499)", who: "root", path: "/log?p=499" },
    { label: "/log user (own)", who: "user", path: "/log" },
    { label: "/log user, model filter", who: "user", path: "/log?model_name=gpt-4o" },
    { label: "GET /api/log/?p=0", who: "root", path: "/api/log/?p=0" },
    { label: "GET /api/log/ model filter", who: "root", path: "/api/log/?p=1&model_name=gpt-4o" },
    { label: "GET /api/log/ user filter", who: "root", path: "/api/log/?p=1&username=u2" },
    { label: "GET /api/log/ channel filter", who: "root", path: "/api/log/?p=1&channel=7" },
    { label: "GET /api/log/ p=500", who: "root", path: "/api/log/?p=500" },
    { label: "GET /api/log/stat", who: "root", path: "/api/log/stat" },
    { label: "GET /api/log/stat model", who: "root", path: "/api/log/stat?model_name=gpt-4o" },
    { label: "GET /api/log/stat user", who: "root", path: "/api/log/stat?username=u2" },
    {
      label: "GET /api/log/stat last day",
      who: "root",
      path: `/api/log/stat?start_timestamp=${dayAgo + 1234}&end_timestamp=${now() + 3600}`,
    },
    { label: "GET /api/log/stat token", who: "root", path: "/api/log/stat?token_name=tok-2-1" },
    {
      label: "GET /api/log/self/stat root's token (333 k)",
      who: "root",
      path: "/api/log/self/stat?token_name=tok-1-1",
    },
    { label: "GET /api/log/stat channel", who: "root", path: "/api/log/stat?channel=7" },
    { label: "GET /api/log/self/stat (root, 1 M)", who: "root", path: "/api/log/self/stat" },
    { label: "GET /api/log/self/stat (user)", who: "user", path: "/api/log/self/stat" },
    { label: "GET /api/log/self?p=0 (root, 1 M)", who: "root", path: "/api/log/self?p=0" },
    { label: "GET /api/log/self?p=0 (user)", who: "user", path: "/api/log/self?p=0" },
    ...(current
      ? ([
          { label: "/log admin, page 500 by cursor", who: "root", path: `/log?before=${above.created_at}_${above.id}` },
          {
            label: "/log admin, model, page 500 by cursor",
            who: "root",
            path: `/log?model_name=gpt-4o&before=${aboveModel.created_at}_${aboveModel.id}`,
          },
          { label: "GET /api/log/search?keyword=u2", who: "root", path: "/api/log/search?keyword=u2" },
          { label: "GET /api/log/self/search (root)", who: "root", path: "/api/log/self/search?keyword=gpt-4o" },
          { label: "GET /api/log/self/search (user)", who: "user", path: "/api/log/self/search?keyword=gpt-4o" },
        ] satisfies Case[])
      : []),
  ];
  const results: [string, { p50: number; p95: number; status: string }][] = [];
  for (const c of cases) {
    const r = await measure(server.baseUrl, c.who === "root" ? root : user, c.path);
    results.push([c.label, r]);
    log(`${c.label}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms ${r.status === "ok" ? "" : r.status}`);
  }
  console.log(
    `\n${ROWS.toLocaleString("en")} log rows, ${USERS.toLocaleString("en")} users, PostgreSQL, ${N} warm requests per case\n`,
  );
  console.log("| case | p50 ms | p95 ms |");
  console.log("|---|---:|---:|");
  for (const [label, r] of results)
    console.log(`| ${label} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |${r.status === "ok" ? "" : ` ${r.status}`}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (keep || reuse) log(`database kept: ${scratch.url}`);
  else await scratch.drop();
}
// The rollup's database pool (the app's own) would keep the process alive.
process.exit(0);
