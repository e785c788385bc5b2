/**
 * Relay overhead, measured side by side in one run against a loopback OpenAI-style mock:
 * direct-to-mock vs through Switchyard (token check, routing, reserve/settle, usage log) on real
 * PostgreSQL (+ Redis when REDIS_URL is set), with a bare node:http proxy beside it as the floor
 * any relay pays here. Prints the overhead table and the ratios.
 *
 *   npm run bench:relay     (DATABASE_URL defaults to the local postgres server)
 *   BENCH_BASELINE=../other-checkout npm run bench:relay
 *                           also runs that checkout's build (npm run build there first) beside this
 *                           one, interleaved in the same rounds, and prints the two side by side
 *   BENCH_BODY_KB=60        sends a ~60 KB chat history (with an int64 seed) instead of "Say hi"
 */
import { spawnSync } from "node:child_process";
import pg from "pg";
import { chatBody, startBenchGateway, startComparisonRelay } from "./gateway-setup";
import { combineRuns, runLoad, type LoadResult } from "./load";
import { cpuMs, rssMb } from "./process-stats";
import { startAnthropicMock } from "../tests/mocks/anthropic-upstream";
import { parsePrometheus, sumOf } from "../tests/support/prometheus";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
// Each row's seconds are split into this many interleaved runs per target (medians reported).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SOAK_REQUESTS = Number(process.env.BENCH_SOAK ?? 100_000);
// The soak runs at least this long, whatever the rows already served: a stall shows in a long run.
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
// /metrics on: the soak reads the gateway's own event-loop delay from it.
const METRICS_TOKEN = "bench-metrics";
const { upstream, server, key, api, close } = await startBenchGateway({ env: { METRICS_TOKEN } });
// Another checkout's build on the same mock and database server, for a before/after in one run.
const baseline = process.env.BENCH_BASELINE
  ? await startBenchGateway({ cwd: process.env.BENCH_BASELINE, upstream })
  : undefined;
// A converted provider beside the pass-through: Claude through the OpenAI surface (request,
// reply and stream converted by the anthropic adapter) against a loopback Messages API.
const claude = await startAnthropicMock("sk-ant-bench");
const CLAUDE_MODEL = "claude-3-5-sonnet-20241022";
// The model of the capped channel the limits rows call (priced by default; the mock answers any model).
const LIMITED_MODEL = "gpt-4o";
await api("POST", "/api/channel/", {
  type: 14,
  name: "bench-claude",
  key: "sk-ant-bench",
  base_url: claude.url,
  models: CLAUDE_MODEL,
  group: "default",
});
const bare = await startComparisonRelay("bare", upstream);
// The least a relay that charges for calls does (floor-relay.mjs): between it and the bare relay
// is the price of charging at all; between it and the gateway, the gateway's own cost.
const floor = await startComparisonRelay("floor", upstream);
try {
  const quotaBefore = (await api("GET", "/api/user/self")).data.quota as number;

  const payload = chatBody;
  const direct = (stream: boolean) => ({
    headers: { "Content-Type": "application/json", Authorization: "Bearer sk-bench" },
    body: payload(stream),
  });
  const viaGateway = (stream: boolean) => ({
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: payload(stream),
  });
  const claudeBody = (stream: boolean) =>
    JSON.stringify({ model: CLAUDE_MODEL, stream, max_tokens: 100, messages: [{ role: "user", content: "Say hi" }] });
  const claudeDirect = (stream: boolean) => ({
    headers: { "Content-Type": "application/json", "x-api-key": "sk-ant-bench", "anthropic-version": "2023-06-01" },
    body: claudeBody(stream),
  });
  const claudeViaGateway = (stream: boolean) => ({
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: claudeBody(stream),
  });
  const claudeDirectUrl = `${claude.url}/v1/messages`;
  const directUrl = `${upstream.url}/v1/chat/completions`;
  const gatewayUrl = `${server.baseUrl}/v1/chat/completions`;
  const baselineUrl = baseline ? `${baseline.server.baseUrl}/v1/chat/completions` : "";
  const viaBaseline = (stream: boolean) => ({
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${baseline?.key}` },
    body: payload(stream),
  });
  const bareUrl = bare.url;
  const floorUrl = floor.url;

  // Warm caches, pools and the JIT on both paths first, as a gateway in service is: the figures
  // are a running gateway's, not its first seconds'.
  for (const stream of [false, true]) {
    await runLoad(gatewayUrl, viaGateway(stream), 50, 3);
    if (baseline) await runLoad(baselineUrl, viaBaseline(stream), 50, 3);
    await runLoad(bareUrl, direct(stream), 50, 1);
    await runLoad(floorUrl, direct(stream), 50, 1);
    await runLoad(gatewayUrl, claudeViaGateway(stream), 50, 2);
  }
  const rows: [string, LoadResult, LoadResult, LoadResult, number][] = [];
  // Per row: Claude direct, Claude through the gateway, and the gateway's CPU per Claude request.
  const claudeRows: [LoadResult, LoadResult, number][] = [];
  // Per row: the baseline build and its CPU per request (when BENCH_BASELINE is set).
  const baselineRows: [LoadResult, number][] = [];
  const floorRows: LoadResult[] = [];
  let gatewayRequests = 0;
  const cpuBefore = cpuMs(server.pid);
  for (const [label, stream, connections] of [
    ["non-stream c=50", false, 50],
    ["stream c=50", true, 50],
    ["non-stream c=1", false, 1],
    ["stream c=1", true, 1],
  ] as const) {
    const runs: Record<"direct" | "bare" | "floor" | "gateway" | "claudeDirect" | "claudeGateway", LoadResult[]> = {
      direct: [],
      bare: [],
      floor: [],
      gateway: [],
      claudeDirect: [],
      claudeGateway: [],
    };
    let gatewayCpu = 0;
    let claudeCpu = 0;
    const baselineRuns: LoadResult[] = [];
    let baselineCpu = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate the order, so a drift within the round does not always favour the same target.
      const order =
        round % 2 === 0
          ? (["direct", "bare", "floor", "gateway", "claudeDirect", "claudeGateway"] as const)
          : (["claudeGateway", "claudeDirect", "gateway", "floor", "bare", "direct"] as const);
      if (baseline) {
        // Before and after the gateway's own run, alternately, so neither build always goes first.
        const cpuRun = cpuMs(baseline.server.pid);
        const b = await runLoad(baselineUrl, viaBaseline(stream), connections, seconds / ROUNDS);
        baselineCpu += cpuMs(baseline.server.pid) - cpuRun;
        baselineRuns.push(b);
      }
      for (const target of order) {
        if (target === "claudeDirect") {
          runs.claudeDirect.push(await runLoad(claudeDirectUrl, claudeDirect(stream), connections, seconds / ROUNDS));
          continue;
        }
        if (target === "claudeGateway") {
          const cpuRun = cpuMs(server.pid);
          const c = await runLoad(gatewayUrl, claudeViaGateway(stream), connections, seconds / ROUNDS);
          claudeCpu += (cpuMs(server.pid) - cpuRun) / Math.max(1, c.requests + c.errors);
          runs.claudeGateway.push(c);
          continue;
        }
        if (target !== "gateway") {
          const url = target === "direct" ? directUrl : target === "bare" ? bareUrl : floorUrl;
          runs[target].push(await runLoad(url, direct(stream), connections, seconds / ROUNDS));
          continue;
        }
        const cpuRun = cpuMs(server.pid);
        const g = await runLoad(gatewayUrl, viaGateway(stream), connections, seconds / ROUNDS);
        gatewayCpu += cpuMs(server.pid) - cpuRun;
        gatewayRequests += g.requests + g.errors;
        runs.gateway.push(g);
      }
    }
    claudeRows.push([combineRuns(runs.claudeDirect), combineRuns(runs.claudeGateway), claudeCpu / ROUNDS]);
    if (baseline) {
      const b = combineRuns(baselineRuns);
      baselineRows.push([b, baselineCpu / Math.max(1, b.requests + b.errors)]);
    }
    floorRows.push(combineRuns(runs.floor));
    const g = combineRuns(runs.gateway);
    rows.push([
      label,
      combineRuns(runs.direct),
      combineRuns(runs.bare),
      g,
      gatewayCpu / Math.max(1, g.requests + g.errors),
    ]);
  }
  const cpuPerRequest = (cpuMs(server.pid) - cpuBefore) / gatewayRequests;

  // Memory is read after a soak to 100k requests (and at least SOAK_SECONDS), so a leak would show.
  let soakErrors = 0;
  const errorSamples = rows.flatMap(([, , , g]) => g.errorSamples);
  // The soak is also the long run a stall would show in: its slowest request is printed.
  // What the gateway itself saw, from /metrics: its relay calls over 50 ms and 500 ms (cumulative
  // counts, so the soak's are a difference), and its event loop's longest delay (a scrape resets
  // it, so the scrape after the soak covers the soak alone).
  const gatewaySaw = async () => {
    const scrape = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    const samples = parsePrometheus(await scrape.text());
    const calls = sumOf(samples, "switchyard_relay_duration_seconds_count");
    return {
      over50: calls - sumOf(samples, "switchyard_relay_duration_seconds_bucket", { le: "0.05" }),
      over100: calls - sumOf(samples, "switchyard_relay_duration_seconds_bucket", { le: "0.1" }),
      over250: calls - sumOf(samples, "switchyard_relay_duration_seconds_bucket", { le: "0.25" }),
      over500: calls - sumOf(samples, "switchyard_relay_duration_seconds_bucket", { le: "0.5" }),
      loopDelayMaxMs: sumOf(samples, "nodejs_eventloop_lag_max_seconds") * 1000,
    };
  };
  const sawBefore = await gatewaySaw();
  const soakStarted = Date.now();
  let soakLongest = 0;
  const soakUntil = soakStarted + SOAK_SECONDS * 1000;
  const soakRuns: LoadResult[] = [];
  while (gatewayRequests < SOAK_REQUESTS || Date.now() < soakUntil) {
    const g = await runLoad(gatewayUrl, viaGateway(false), 50, 5);
    gatewayRequests += g.requests + g.errors;
    soakErrors += g.errors;
    soakLongest = Math.max(soakLongest, g.max);
    soakRuns.push(g);
    errorSamples.push(...g.errorSamples);
  }
  const soakSeconds = (Date.now() - soakStarted) / 1000;
  const sawAfter = await gatewaySaw();
  const rss = rssMb(server.pid);
  // The same soak through the bare and the floor relays: a slowest request they show as well is
  // the machine's (its other processes, the load generator, the mock), not the gateway's.
  const comparisonSoak = async (url: string) => {
    const runs: LoadResult[] = [];
    for (const until = Date.now() + soakSeconds * 1000; Date.now() < until;)
      runs.push(await runLoad(url, direct(false), 50, 5));
    return combineRuns(runs);
  };
  const bareSoak = await comparisonSoak(bareUrl);
  const floorSoak = await comparisonSoak(floorUrl);

  // What limits add: the same call by a token with rpm and tpm limits (one counter taken before,
  // one read before and one added after) to a channel whose key is capped in flight and per
  // minute (a slot taken and given back, a counter taken), limits far above the load so none
  // refuses; alternated with the plain token and channel, CPU per request of each.
  await api("POST", "/api/channel/", {
    type: 1,
    name: "bench-capped",
    key: "sk-bench",
    base_url: upstream.url,
    models: LIMITED_MODEL,
    group: "default",
    key_max_concurrency: 1_000_000,
    key_rpm_limit: 1_000_000,
  });
  await api("POST", "/api/token/", {
    name: "bench-limited",
    unlimited_quota: true,
    remain_quota: 0,
    expired_time: -1,
    rpm_limit: 1_000_000_000,
    tpm_limit: 1_000_000_000,
  });
  const limitedId = ((await api("GET", "/api/token/")).data as { id: number; name: string }[]).find(
    (t) => t.name === "bench-limited",
  )!.id;
  const limitedKey = (await api("GET", `/api/token/${limitedId}/key`)).data.key as string;
  const viaLimits = (stream: boolean) => ({
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${limitedKey}` },
    body: chatBody(stream).replace('"gpt-4o-mini"', `"${LIMITED_MODEL}"`),
  });
  await runLoad(gatewayUrl, viaLimits(false), 50, 2);
  const limitRows: [string, LoadResult, number, LoadResult, number][] = [];
  for (const [label, connections] of [
    ["non-stream c=50", 50],
    ["non-stream c=1", 1],
  ] as const) {
    const plain: LoadResult[] = [];
    const limited: LoadResult[] = [];
    let plainCpu = 0;
    let limitedCpu = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const target of round % 2 === 0 ? (["plain", "limited"] as const) : (["limited", "plain"] as const)) {
        const cpuRun = cpuMs(server.pid);
        const result = await runLoad(
          gatewayUrl,
          target === "plain" ? viaGateway(false) : viaLimits(false),
          connections,
          seconds / ROUNDS,
        );
        const used = cpuMs(server.pid) - cpuRun;
        errorSamples.push(...result.errorSamples);
        if (target === "plain") {
          plain.push(result);
          plainCpu += used;
        } else {
          limited.push(result);
          limitedCpu += used;
        }
      }
    }
    const p = combineRuns(plain);
    const l = combineRuns(limited);
    limitRows.push([
      label,
      p,
      plainCpu / Math.max(1, p.requests + p.errors),
      l,
      limitedCpu / Math.max(1, l.requests + l.errors),
    ]);
  }

  await new Promise((r) => setTimeout(r, 500));
  const quotaAfter = (await api("GET", "/api/user/self")).data.quota as number;
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  const logged = Number(
    (await db.query("select coalesce(sum(quota), 0) as q, count(*) as n from logs where type = 2")).rows[0].q,
  );
  const logRows = Number((await db.query("select count(*) as n from logs where type = 2")).rows[0].n);
  await db.end();

  const f = (n: number, d = 2) => n.toFixed(d);
  console.log(
    `\nrelay benchmark on PostgreSQL${process.env.REDIS_URL ? " + Redis" : ""}, ${seconds}s per target and row in ${ROUNDS} interleaved runs (medians), loopback near-free OpenAI upstream (its own process)\n`,
  );
  console.log(
    "| run | direct req/s | gateway req/s | ratio | direct p50 ms | gateway p50 ms | added p50 ms | added TTFB ms | gateway CPU ms/req | gateway errors | bare relay ratio | bare added p50 ms | bare added TTFB ms |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const [label, d, b, g, cpu] of rows) {
    console.log(
      `| ${label} | ${f(d.rps, 0)} | ${f(g.rps, 0)} | ${f(g.rps / d.rps)} | ${f(d.p50)} | ${f(g.p50)} | ${f(g.p50 - d.p50)} | ${f(g.ttfbP50 - d.ttfbP50)} | ${f(cpu, 3)} | ${g.errors} | ${f(b.rps / d.rps)} | ${f(b.p50 - d.p50)} | ${f(b.ttfbP50 - d.ttfbP50)} |`,
    );
  }
  console.log("(bare relay: a plain node:http proxy to the same mock, the floor any relay pays on this machine)");
  console.log(
    "\nagainst the bare relay, with the tail (p99 is the median of the runs' p99s; longest is the slowest request of all runs):\n",
  );
  console.log(
    "| run | direct req/s | bare req/s | floor req/s | gateway req/s | floor / bare | gateway / bare | direct p50 / p99 ms | bare p50 / p99 ms | floor p50 / p99 ms | gateway p50 / p99 ms | gateway p99 / p50 | bare / floor / gateway longest ms |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  rows.forEach(([label, d, b, g], i) => {
    const fl = floorRows[i]!;
    console.log(
      `| ${label} | ${f(d.rps, 0)} | ${f(b.rps, 0)} | ${f(fl.rps, 0)} | ${f(g.rps, 0)} | ${f(fl.rps / b.rps)} | ${f(g.rps / b.rps)} | ${f(d.p50)} / ${f(d.p99)} | ${f(b.p50)} / ${f(b.p99)} | ${f(fl.p50)} / ${f(fl.p99)} | ${f(g.p50)} / ${f(g.p99)} | ${f(g.p99 / Math.max(0.001, g.p50), 1)} | ${f(b.max, 1)} / ${f(fl.max, 1)} / ${f(g.max, 1)} |`,
    );
  });
  console.log(
    "(floor relay: the least a relay that charges for calls does, bench/floor-relay.mjs: body and usage parsed, token in memory, one journal line per call on disk before the reply ends; no database, logs or metrics)",
  );
  console.log("\nconverted provider (Claude through the OpenAI surface) beside the OpenAI pass-through, same run:\n");
  console.log(
    "| run | pass-through added p50 ms | converted added p50 ms | conversion cost p50 ms | pass-through CPU ms/req | converted CPU ms/req | conversion cost CPU ms/req | converted errors |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  rows.forEach(([label, d, , g, cpu], i) => {
    const [cd, cg, ccpu] = claudeRows[i]!;
    const passAdded = g.p50 - d.p50;
    const convAdded = cg.p50 - cd.p50;
    console.log(
      `| ${label} | ${f(passAdded)} | ${f(convAdded)} | ${f(convAdded - passAdded)} | ${f(cpu, 3)} | ${f(ccpu, 3)} | ${f(ccpu - cpu, 3)} | ${cg.errors} |`,
    );
  });
  console.log(
    "(added = gateway minus the same mock called directly; both mocks send a stream's events at once; the Anthropic mock runs inside the benchmark's process, so its rows are read against its own direct runs)",
  );
  if (baseline) {
    console.log(`\nthis build beside the baseline build (${process.env.BENCH_BASELINE}), same mock, same rounds:\n`);
    console.log(
      "| run | this req/s | baseline req/s | this/baseline | this added p50 ms | baseline added p50 ms | this CPU ms/req | baseline CPU ms/req | baseline errors |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    rows.forEach(([label, d, , g, cpu], i) => {
      const [b, bcpu] = baselineRows[i]!;
      console.log(
        `| ${label} | ${f(g.rps, 0)} | ${f(b.rps, 0)} | ${f(g.rps / b.rps)} | ${f(g.p50 - d.p50)} | ${f(b.p50 - d.p50)} | ${f(cpu, 3)} | ${f(bcpu, 3)} | ${b.errors} |`,
      );
    });
  }
  console.log(
    "\nlimits: a token with rpm and tpm limits calling a channel whose key is capped in flight and per minute (limits far above the load), beside the plain token and channel, same run:\n",
  );
  console.log(
    "| run | plain req/s | limited req/s | plain p50 ms | limited p50 ms | plain CPU ms/req | limited CPU ms/req | limits CPU ms/req | limited errors |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [label, p, pcpu, l, lcpu] of limitRows) {
    console.log(
      `| ${label} | ${f(p.rps, 0)} | ${f(l.rps, 0)} | ${f(p.p50)} | ${f(l.p50)} | ${f(pcpu, 3)} | ${f(lcpu, 3)} | ${f(lcpu - pcpu, 3)} | ${l.errors} |`,
    );
  }
  const metricsCost = spawnSync(
    process.execPath,
    ["--import", "tsx", new URL("./metrics-cost.ts", import.meta.url).pathname],
    { encoding: "utf8", env: { ...process.env, BENCH_CALLS: "100000" } },
  );
  console.log(
    `\nmetrics (bench/metrics-cost.ts, the relay's metric hooks alone):\n${(metricsCost.stdout || metricsCost.stderr).trim()}`,
  );
  console.log(
    `\ngateway CPU per request over the four runs: ${f(cpuPerRequest, 3)} ms; RSS after ${gatewayRequests} requests: ${f(rss, 0)} MB; soak errors: ${soakErrors}`,
  );
  const soak = combineRuns(soakRuns);
  console.log(
    `soak: ${f(soakSeconds, 0)} s at fifty connections (non-stream), ${f(soak.rps, 0)} req/s, p50 / p99 ${f(soak.p50, 2)} / ${f(soak.p99, 2)} ms (p99 / p50 ${f(soak.p99 / Math.max(soak.p50, 0.001), 1)}); slowest request ${f(soakLongest, 1)} ms${soakLongest > 50 ? " (a stall over 50 ms)" : ""}`,
  );
  for (const [name, run] of [
    ["bare relay", bareSoak],
    ["floor relay", floorSoak],
  ] as const)
    console.log(
      `  the same soak through the ${name}: ${f(run.rps, 0)} req/s, p50 / p99 ${f(run.p50, 2)} / ${f(run.p99, 2)} ms; slowest request ${f(run.max, 1)} ms`,
    );
  console.log(
    `  inside the gateway (its /metrics) in the soak: ${sawAfter.over50 - sawBefore.over50} calls over 50 ms, ${sawAfter.over100 - sawBefore.over100} over 100 ms, ${sawAfter.over250 - sawBefore.over250} over 250 ms, ${sawAfter.over500 - sawBefore.over500} over 500 ms; its event loop was held at most ${f(sawAfter.loopDelayMaxMs, 1)} ms (a slower request than these waited outside it: connecting, the load generator, the mock, the machine)`,
  );
  for (const sample of errorSamples.slice(0, 10)) console.log(`error: ${sample}`);
  console.log(
    `consistency: user quota decreased by ${quotaBefore - quotaAfter}, usage logs sum to ${logged} over ${logRows} rows -> ${quotaBefore - quotaAfter === logged ? "exact" : "MISMATCH"}`,
  );
} finally {
  bare.close();
  floor.close();
  await baseline?.close();
  await claude.close();
  await close();
}
