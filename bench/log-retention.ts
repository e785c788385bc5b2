/**
 * Log retention at scale (decision 029): a scratch PostgreSQL database behind a Switchyard with
 * 10 M log rows (three whole past months, a few days of the month at the cutoff, and recent
 * rows), then the relay under closed-loop load twice in the same run: once alone, once while
 * the retention job (LogRetentionDays, started by its own schedule tick) drops the old months
 * and deletes the edge month's older rows in batches. Prints each month's drop time, the batch
 * deletes' time, and relay p50/p99 with and without the job.
 *
 *   npm run bench:retention                   (DATABASE_URL defaults to the local postgres server)
 *   npm run bench:retention -- --rows 1000000 a quicker run
 *   --seconds <s>                             length of each load phase (default 20)
 *   --connections <n>                         load connections (default 8)
 */
import pg from "pg";
import { chatBody, startBenchGateway } from "./gateway-setup";
import { runLoad } from "./load";

const args = process.argv.slice(2);
const value = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const ROWS = Number(value("rows") ?? 10_000_000);
const SECONDS = Number(value("seconds") ?? 20);
const CONNECTIONS = Number(value("connections") ?? 8);
const DAY = 86_400;
const log = (line: string) => console.log(`[bench:retention ${new Date().toISOString().slice(11, 19)}] ${line}`);

const monthStart = (base: Date, offset: number) =>
  Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + offset, 1) / 1000;
const partitionName = (start: number) => {
  const d = new Date(start * 1000);
  return `logs_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
};

/**
 * A past month filled as the relay would have: created standalone, bulk-loaded, then attached
 * (PostgreSQL builds the parent's indexes on it once, much quicker than row by row); the CHECK
 * spares attach a validation scan.
 */
async function seedMonth(db: pg.Client, from: number, to: number, rows: number, spanFrom = from, spanTo = to) {
  const name = partitionName(from);
  await db.query(`create table ${name} (like logs including defaults)`);
  await db.query(
    `insert into ${name} (id, created_at, type, content, user_id, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, channel_id, token_id, "group", other)
     select nextval('bench_log_ids'), $1::int8 + (g::int8 * ($2::int8 - $1::int8) / $3::int8), 2, '', 1 + g % 1000, 'user' || (1 + g % 1000), 'default', 'gpt-4o-mini', 150, 50, 25, 1, 1, 1, 'default', ''
     from generate_series(0, $3::int8 - 1) g`,
    [spanFrom, spanTo, rows],
  );
  await db.query(
    `alter table ${name} add constraint ${name}_bounds check (created_at >= ${from} and created_at < ${to})`,
  );
  await db.query(`alter table logs attach partition ${name} for values from (${from}) to (${to})`);
  await db.query(`alter table ${name} drop constraint ${name}_bounds`);
  await db.query(`analyze ${name}`);
  log(`  ${name}: ${rows} rows`);
}

const gateway = await startBenchGateway({ env: { SCHEDULE_TICK_SECONDS: "1" } });
const db = new pg.Client({ connectionString: gateway.server.databaseUrl });
await db.connect();
try {
  const today = new Date();
  const nowSec = Math.floor(today.getTime() / 1000);
  // Three whole past months (dropped), the month before this one (its first four days older than
  // the cutoff: deleted in batches; the rest kept), and this month's rows (kept).
  const whole = Math.floor(ROWS * 0.3);
  const edgeOld = Math.floor(ROWS * 0.01);
  const edgeKept = Math.floor(ROWS * 0.06);
  const recent = ROWS - 3 * whole - edgeOld - edgeKept;
  const edgeFrom = monthStart(today, -1);
  const cutoff = edgeFrom + 4 * DAY + DAY / 2;
  log(`seeding ${ROWS} log rows (ids from a sequence of the bench's own)…`);
  const seeding = performance.now();
  await db.query(`create sequence bench_log_ids start 1000000000`);
  for (const offset of [-4, -3, -2])
    await seedMonth(db, monthStart(today, offset), monthStart(today, offset + 1), whole);
  const edge = partitionName(edgeFrom);
  await seedMonth(db, edgeFrom, monthStart(today, 0), edgeOld, edgeFrom, cutoff - 1);
  await db.query(
    `insert into ${edge} (id, created_at, type, user_id, model_name, quota) select nextval('bench_log_ids'), $1::int8 + (g::int8 * ($2::int8 - $1::int8) / $3::int8), 2, 1, 'gpt-4o-mini', 150 from generate_series(0, $3::int8 - 1) g`,
    [cutoff + DAY, monthStart(today, 0), edgeKept],
  );
  await db.query(
    `insert into logs (id, created_at, type, user_id, model_name, quota) select nextval('bench_log_ids'), $1::int8 + (g::int8 * ($2::int8 - $1::int8) / $3::int8), 2, 1, 'gpt-4o-mini', 150 from generate_series(0, $3::int8 - 1) g`,
    [monthStart(today, 0), nowSec - 60, recent],
  );
  await db.query("analyze logs");
  const total = Number((await db.query("select count(*) from logs")).rows[0].count);
  log(
    `seeded ${total} rows in ${((performance.now() - seeding) / 1000).toFixed(0)} s; cutoff ${new Date(cutoff * 1000).toISOString()}`,
  );

  const url = `${gateway.server.baseUrl}/v1/chat/completions`;
  const init = {
    headers: { Authorization: `Bearer ${gateway.key}`, "Content-Type": "application/json" },
    body: chatBody(false),
  };
  await runLoad(url, init, CONNECTIONS, 3); // warm-up
  log(`relay alone: ${SECONDS} s at ${CONNECTIONS} connections…`);
  const alone = await runLoad(url, init, CONNECTIONS, SECONDS);

  log(`relay with the retention job: LogRetentionDays set 2 s in…`);
  const withJob = runLoad(url, init, CONNECTIONS, SECONDS);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const days = (nowSec - cutoff) / DAY;
  const setAt = Date.now();
  const saved = await gateway.api("PUT", "/api/option/", { key: "LogRetentionDays", value: String(Math.floor(days)) });
  if (!saved.success) throw new Error(`LogRetentionDays: ${saved.message}`);
  let job: { last_finished_at: number | null; last_message: string; last_started_at: number | null } | undefined;
  for (;;) {
    job = (
      await db.query(
        "select last_started_at, last_finished_at, last_message from job_runs where name = 'logs.retention'",
      )
    ).rows[0];
    if (job?.last_finished_at) break;
    if (Date.now() - setAt > 10 * 60_000) throw new Error("the retention job did not finish within 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const during = await withJob;
  const left = Number((await db.query("select count(*) from logs")).rows[0].count);
  const pct = (a: number, b: number) => `${b ? (((a - b) / b) * 100).toFixed(0) : "-"}%`;
  console.log("");
  console.log(`rows: ${total} before, ${left} after (the job's whole days: ${Math.floor(days)}; rollups untouched)`);
  console.log(`job: ${job!.last_message}`);
  console.log(
    `job ran ${Number(job!.last_finished_at) - Number(job!.last_started_at)} ms, started ${Number(job!.last_started_at) - setAt} ms after the option was saved`,
  );
  console.log("| phase | requests | rps | p50 ms | p99 ms | errors |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(
    `| relay alone | ${alone.requests} | ${alone.rps.toFixed(0)} | ${alone.p50.toFixed(1)} | ${alone.p99.toFixed(1)} | ${alone.errors} |`,
  );
  console.log(
    `| relay + retention job | ${during.requests} | ${during.rps.toFixed(0)} | ${during.p50.toFixed(1)} (${pct(during.p50, alone.p50)}) | ${during.p99.toFixed(1)} (${pct(during.p99, alone.p99)}) | ${during.errors} |`,
  );
} finally {
  await db.end();
  await gateway.close();
}
