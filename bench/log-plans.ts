/**
 * EXPLAIN ANALYZE of the log list, count, stat and search queries (as the app sends them) on a
 * database seeded by `npm run bench:logs -- --keep`: which index each filter uses, and its time.
 *
 *   npx tsx bench/log-plans.ts <database url>
 */
import pg from "pg";

const url = process.argv[2];
if (!url) throw new Error("usage: tsx bench/log-plans.ts <database url>");
const client = new pg.Client({ connectionString: url });
await client.connect();
const cols = "*";
const order = "order by created_at desc, id desc limit 11";
const rolled = Number(
  (await client.query("select rolled_until from usage_rollup_progress")).rows[0]?.rolled_until ?? 0,
);
const deep = (
  await client.query("select created_at, id from logs order by created_at desc, id desc offset 4989 limit 1")
).rows[0] as { created_at: number; id: number };
const queries: [string, string][] = [
  ["list, no filter", `select ${cols} from logs ${order}`],
  ["list, model", `select ${cols} from logs where model_name = 'gpt-4o' ${order}`],
  ["list, user name", `select ${cols} from logs where username = 'u2' ${order}`],
  ["list, channel", `select ${cols} from logs where channel_id = 7 ${order}`],
  ["list, type 3", `select ${cols} from logs where type = 3 ${order}`],
  ["list, own (root, 1 M)", `select ${cols} from logs where user_id = 1 ${order}`],
  ["list, own top-ups", `select ${cols} from logs where user_id = 1 and type = 1 ${order}`],
  [
    "list, page 500 by cursor",
    `select ${cols} from logs where (created_at, id) < (${deep.created_at}, ${deep.id}) ${order}`,
  ],
  ["list, offset 4990", `select ${cols} from logs ${order} offset 4990`],
  ["count, model (≤ 10 001)", "select count(*) from (select 1 from logs where model_name = 'gpt-4o' limit 10001) m"],
  [
    "stat, no filter: rollups",
    `select coalesce(sum(quota), 0) from quota_data_models where created_at >= 0 and created_at < ${rolled}`,
  ],
  [
    "stat, no filter: live logs",
    `select coalesce(sum(quota), 0), count(*) from logs where type = 2 and created_at >= ${rolled}`,
  ],
  [
    "stat, root: rollups",
    `select coalesce(sum(quota), 0) from quota_data where user_id = 1 and created_at >= 0 and created_at < ${rolled}`,
  ],
  [
    "stat, user name: rollups",
    `select coalesce(sum(quota), 0) from quota_data where username = 'u2' and created_at >= 0 and created_at < ${rolled}`,
  ],
  [
    "stat, rpm/tpm",
    `select count(*), coalesce(sum(prompt_tokens + completion_tokens), 0) from logs where type = 2 and created_at >= extract(epoch from now())::bigint - 60`,
  ],
  ["stat, channel (logs)", "select coalesce(sum(quota), 0) from logs where type = 2 and channel_id = 7"],
  ["search, token name", "select * from logs where token_name = 'tok-2-1' order by created_at desc, id desc limit 100"],
];
for (const [label, sql] of queries) {
  const plan = (await client.query(`explain (analyze, costs off) ${sql}`)).rows.map(
    (r: Record<string, string>) => r["QUERY PLAN"]!,
  );
  const scans = [
    ...new Set(
      plan
        .map((l) =>
          /(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)(?: Backward)? (?:using (\S+) )?on (\S+)/.exec(l),
        )
        .filter(Boolean)
        .map((m) => `${m![1]} ${m![2] ?? m![3]}`.replace(/logs_(default|y\d{4}m\d{2})_/, "logs_*_")),
    ),
  ];
  const time = plan.find((l) => l.startsWith("Execution Time"))!;
  console.log(`| ${label} | ${scans.slice(0, 3).join("; ")} | ${time.replace("Execution Time: ", "")} |`);
}
await client.end();
