/**
 * One web process against several on one port (WEB_CONCURRENCY), side by side in one run: two
 * gateways on the same near-free upstream, each on its own database, with the bare relay run
 * alike (one process, and as many as the gateway's) as the floor. Interleaved short runs,
 * medians; CPU and memory are the whole process tree's (primary and web processes).
 *
 *   npm run bench:web-concurrency             (DATABASE_URL defaults to the local postgres server,
 *                                              REDIS_URL to the local Redis: several processes need both)
 *   BENCH_PROCESSES=4 npm run bench:web-concurrency
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import pg from "pg";
import { chatBody, startBenchGateway, startFastUpstream, type BenchGateway } from "./gateway-setup";
import { combineRuns, runLoad, type LoadResult } from "./load";
import { treeCpuMs, treeRssMb } from "./process-stats";

process.env.REDIS_URL ||= "redis://127.0.0.1:6379";
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const many = Number(process.env.BENCH_PROCESSES ?? availableParallelism());

async function startBare(upstreamUrl: string, processes: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [new URL("./bare-relay.mjs", import.meta.url).pathname, upstreamUrl, String(processes)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = String((await once(child.stdout!, "data"))[0]).trim();
  return { url: `http://127.0.0.1:${port}/v1/chat/completions`, child };
}

const upstream = await startFastUpstream();
const gateways: [string, BenchGateway][] = [
  ["1 process", await startBenchGateway({ upstream, env: { WEB_CONCURRENCY: "1" } })],
  [`${many} processes`, await startBenchGateway({ upstream, env: { WEB_CONCURRENCY: String(many) } })],
];
const bares = [await startBare(upstream.url, 1), await startBare(upstream.url, many)];
try {
  const request = (key: string, stream: boolean) => ({
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: chatBody(stream),
  });
  const quotaBefore = await Promise.all(
    gateways.map(async ([, g]) => (await g.api("GET", "/api/user/self")).data.quota as number),
  );
  for (const stream of [false, true])
    for (const [, g] of gateways)
      await runLoad(`${g.server.baseUrl}/v1/chat/completions`, request(g.key, stream), 50, 3);

  type Row = { label: string; bare: LoadResult[]; gateway: LoadResult[]; cpuPerRequest: number[] };
  const table: Row[] = [];
  for (const [label, stream, connections] of [
    ["non-stream c=50", false, 50],
    ["stream c=50", true, 50],
    ["non-stream c=1", false, 1],
  ] as const) {
    const runs = gateways.map(() => ({ bare: [] as LoadResult[], gateway: [] as LoadResult[], cpu: 0 }));
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const [, g] = gateways[i]!;
        runs[i]!.bare.push(await runLoad(bares[i]!.url, request("sk-bench", stream), connections, seconds / ROUNDS));
        const cpuBefore = treeCpuMs(g.server.pid);
        runs[i]!.gateway.push(
          await runLoad(
            `${g.server.baseUrl}/v1/chat/completions`,
            request(g.key, stream),
            connections,
            seconds / ROUNDS,
          ),
        );
        runs[i]!.cpu += treeCpuMs(g.server.pid) - cpuBefore;
      }
    }
    gateways.forEach(([name], i) => {
      const served = runs[i]!.gateway.reduce((sum, r) => sum + r.requests + r.errors, 0);
      table.push({
        label: `${label}, ${name}`,
        bare: runs[i]!.bare,
        gateway: runs[i]!.gateway,
        cpuPerRequest: [runs[i]!.cpu / Math.max(1, served)],
      });
    });
  }

  const f = (n: number, d = 2) => n.toFixed(d);
  console.log(
    `\nweb processes on one port: 1 against ${many} (WEB_CONCURRENCY), PostgreSQL + Redis, ${availableParallelism()} cores shared with the load generator and the upstream, ${seconds}s per target and row in ${ROUNDS} interleaved runs\n`,
  );
  console.log(
    "| run | bare req/s | gateway req/s | gateway / bare | gateway p50 / p99 ms | gateway errors | gateway CPU ms/req |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const row of table) {
    const b = combineRuns(row.bare);
    const g = combineRuns(row.gateway);
    console.log(
      `| ${row.label} | ${f(b.rps, 0)} | ${f(g.rps, 0)} | ${f(g.rps / b.rps)} | ${f(g.p50)} / ${f(g.p99)} | ${g.errors} | ${f(row.cpuPerRequest[0]!, 3)} |`,
    );
  }
  for (let i = 0; i + 1 < table.length; i += 2) {
    const one = combineRuns(table[i]!.gateway).rps;
    const several = combineRuns(table[i + 1]!.gateway).rps;
    console.log(`${table[i]!.label.split(",")[0]}: ${many} processes serve ${f(several / one)}× what one does`);
  }
  await new Promise((r) => setTimeout(r, 500));
  for (const [[name, g], i] of gateways.map((entry, i) => [entry, i] as const)) {
    const quotaAfter = (await g.api("GET", "/api/user/self")).data.quota as number;
    const db = new pg.Client({ connectionString: g.server.databaseUrl });
    await db.connect();
    const logged = Number((await db.query("select coalesce(sum(quota), 0) as q from logs where type = 2")).rows[0].q);
    await db.end();
    console.log(
      `${name}: RSS ${f(treeRssMb(g.server.pid), 0)} MB (all its processes); quota decreased by ${quotaBefore[i]! - quotaAfter}, logs sum to ${logged} -> ${quotaBefore[i]! - quotaAfter === logged ? "exact" : "MISMATCH"}`,
    );
  }
} finally {
  for (const bare of bares) bare.child.kill("SIGTERM");
  for (const [, g] of gateways) await g.server.stop();
  await upstream.close();
}
