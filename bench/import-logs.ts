// `npm run bench:import` (after `npm run build`): how fast `npm run import --apply` moves usage
// logs. Generates LOG_ROWS (default 1,000,000) new-api log rows in a SQLite file and in a MariaDB
// database (127.0.0.1:3306, root, empty password), imports each into a fresh PostgreSQL database
// (DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/postgres) with the built
// import, and prints the wall time, rows/s and the import process's peak RSS (VmHWM).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mysql from "mysql2/promise";
import sqlite from "node-sqlite3-wasm";
import { createScratchDatabase } from "../tests/support/server";

const ROWS = Number(process.env.LOG_ROWS ?? 1_000_000);
const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const START = Math.floor(Date.parse("2026-09-01T00:00:00Z") / 1000);
/** Two months of rows, evenly spread. */
const SPREAD = 61 * 86_400;

const ddl = () =>
  readFileSync("tests/fixtures/import/history-new-api.sql", "utf8")
    .replace(/--.*$/gm, "")
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);

/** The rows as one `select` over a generated sequence `n` (1…ROWS), the same in both engines. */
const rowSelect = (
  n: string,
) => `select ${n}, 1 + ${n} % 1000, ${START} + (${n} * ${SPREAD}) / ${ROWS}, 2, 'bench call', 'user' || (${n} % 1000),
  'key', 'gpt-bench-' || (${n} % 5), 100 + ${n} % 900, ${n} % 2000, ${n} % 500, ${n} % 30, ${n} % 2, 1 + ${n} % 3, 1 + ${n} % 1000, '{"model_ratio":1}'`;
const LOG_COLUMNS =
  "id, user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, other";

function makeSqlite(path: string): void {
  const db = new sqlite.Database(path);
  for (const statement of ddl()) db.exec(statement.replaceAll(" auto_increment", ""));
  db.exec(
    `insert into logs (${LOG_COLUMNS}) with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${ROWS}) ${rowSelect("n")} from seq`,
  );
  db.close();
}

async function makeMariadb(name: string): Promise<string> {
  const admin = await mysql.createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
  await admin.query(`create database ${name}`);
  await admin.query(`use ${name}`);
  for (const statement of ddl()) await admin.query(statement);
  // MariaDB's sequence engine generates the numbers; its || is OR unless asked for concatenation.
  await admin.query("set session sql_mode = concat(@@sql_mode, ',PIPES_AS_CONCAT')");
  await admin.query(`insert into logs (${LOG_COLUMNS}) ${rowSelect("seq")} from seq_1_to_${ROWS}`);
  await admin.end();
  return `mysql://root@127.0.0.1:3306/${name}`;
}

type Run = { seconds: number; peakRssMb: number; code: number; output: string };

/** The built import as its own process; its peak resident memory read from /proc while it runs. */
async function importInto(source: string, databaseUrl: string): Promise<Run> {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), "bench-import-"));
  const child = spawn(
    process.execPath,
    ["--max-semi-space-size=8", "--max-old-space-size=768", "build/entry/server/import.mjs", source, "--apply"],
    {
      env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, DATA_DIR: dataDir, REDIS_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => {
    output += c.toString();
    process.stderr.write(c);
  });
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch {
      // the process has just exited
    }
  }, 100);
  const code = await new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? -1)));
  clearInterval(poll);
  rmSync(dataDir, { recursive: true, force: true });
  return { seconds: (Date.now() - started) / 1000, peakRssMb: Math.round(peakKb / 1024), code, output };
}

async function measure(label: string, source: string): Promise<void> {
  const target = await createScratchDatabase(ADMIN_URL);
  try {
    const run = await importInto(source, target.url);
    if (run.code !== 0) throw new Error(`${label}: import exited ${run.code}\n${run.output}`);
    const written = /== logs: found \d+, written (\d+)/.exec(run.output)?.[1];
    const rollups = /rollups recomputed for .* in ([\d.]+) s/.exec(run.output)?.[1];
    const stepRate = [...run.output.matchAll(/\[import\] logs: \d+.* rows, (\d+) rows\/s/g)].pop()?.[1];
    console.log(
      `${label}: ${written} logs in ${run.seconds.toFixed(1)} s (process start to exit) = ${Math.round(ROWS / run.seconds)} rows/s; ` +
        `logs step ${stepRate} rows/s; rollups ${rollups} s; peak RSS ${run.peakRssMb} MB`,
    );
  } finally {
    await target.drop();
  }
}

const dir = mkdtempSync(join(tmpdir(), "bench-import-src-"));
const mariadbName = `import_bench_${Date.now()}`;
try {
  let t = Date.now();
  makeSqlite(join(dir, "one-api.db"));
  console.log(`generated ${ROWS} rows in SQLite in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await measure("SQLite → PostgreSQL", join(dir, "one-api.db"));
  t = Date.now();
  const url = await makeMariadb(mariadbName);
  console.log(`generated ${ROWS} rows in MariaDB in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  await measure("MariaDB → PostgreSQL", url);
} finally {
  rmSync(dir, { recursive: true, force: true });
  const admin = await mysql
    .createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" })
    .catch(() => undefined);
  await admin?.query(`drop database if exists ${mariadbName}`);
  await admin?.end();
}
