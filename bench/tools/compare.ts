import {
  chatBody,
  startBenchGateway,
  startComparisonRelay,
  startFastUpstream,
  type BenchGateway,
} from "../gateway-setup";
import { runLoad } from "../load";
import { cpuMs, postgresCpuMs } from "../process-stats";
import { argsOf, envOf } from "./settings-text";

/**
 * Side-by-side runs for A/B work on the relay, less noisy than one long run: short runs
 * alternating direct-to-mock, the bare node:http proxy, the floor relay (the least a relay that
 * charges does), this build's gateway and, with BASELINE_DIR, another build's (a checkout of
 * another commit with its own `npm run build` and a node_modules link) — all against the
 * near-free mock of bench:relay, so the machine's drift hits them alike. Prints medians: req/s,
 * p50, time to first byte and CPU per request, with what each adds to direct, and for a gateway
 * PostgreSQL's CPU per request as well (it shares the cores with the relays here).
 *
 *   C=1|50  ROUNDS=6  SECONDS=3  STREAM=1  ALONE=1 (one gateway at a time)  BASE_FIRST=1
 *   BASE_ENV / HEAD_ENV="NAME=value …"  environment for one gateway only (BASELINE_DIR=. compares
 *                                       one build with itself under two settings)
 *   BASE_ARGS / HEAD_ARGS="--flag …"    node or V8 flags for one gateway only, after npm start's own
 *   git worktree add /tmp/base HEAD~1 && ln -s $PWD/node_modules /tmp/base/ && (cd /tmp/base && npm run build)
 *   BASELINE_DIR=/tmp/base npx tsx bench/tools/compare.ts
 */
const connections = Number(process.env.C ?? 50);
const stream = Boolean(process.env.STREAM);
// The near-free mock of bench:relay: the relays in front of it are what is measured.
const upstream = await startFastUpstream();
const bare = await startComparisonRelay("bare", upstream);
// The least a billing relay does (bench/floor-relay.mjs): what charging for a call costs at all.
const floor = await startComparisonRelay("floor", upstream);
const gateways: Record<string, BenchGateway> = {};
try {
  // A gateway started first measured 10-30 % cheaper per request than an identical one started
  // after it, with both running (same build, same rounds). ALONE=1 runs one gateway at a time
  // instead, each started afresh for each of its runs (after a 2 s warm-up), so neither has the
  // other beside it; BASE_FIRST=1 starts the baseline first in the default mode.
  const alone = Boolean(process.env.ALONE);
  const specs: [string, () => Promise<BenchGateway>][] = [
    [
      "head",
      () => startBenchGateway({ upstream, env: envOf(process.env.HEAD_ENV), nodeArgs: argsOf(process.env.HEAD_ARGS) }),
    ],
  ];
  if (process.env.BASELINE_DIR) {
    const base = (): Promise<BenchGateway> =>
      startBenchGateway({
        cwd: process.env.BASELINE_DIR,
        upstream,
        env: envOf(process.env.BASE_ENV),
        nodeArgs: argsOf(process.env.BASE_ARGS),
      });
    if (process.env.BASE_FIRST) specs.unshift(["base", base]);
    else specs.push(["base", base]);
  }
  if (!alone) for (const [name, start] of specs) gateways[name] = await start();
  type Target = { name: string; url: string; key: string; pid: number; start?: () => Promise<BenchGateway> };
  const gatewayTarget = (name: string, g: BenchGateway): Target => ({
    name,
    url: `${g.server.baseUrl}/v1/chat/completions`,
    key: g.key,
    pid: g.server.pid,
  });
  const targets: Target[] = [
    { name: "direct", url: `${upstream.url}/v1/chat/completions`, key: "sk-bench", pid: process.pid },
    { name: "bare", url: bare.url, key: "sk-bench", pid: bare.pid },
    { name: "floor", url: floor.url, key: "sk-bench", pid: floor.pid },
    ...(alone
      ? specs.map(([name, start]): Target => ({ name, url: "", key: "", pid: 0, start }))
      : Object.entries(gateways).map(([name, g]) => gatewayTarget(name, g))),
  ];
  const seen: Record<string, { cpu: number[]; pg: number[]; p50: number[]; ttfb: number[]; rps: number[] }> = {};
  for (let round = -1; round < Number(process.env.ROUNDS ?? 6); round += 1) {
    for (const listed of round % 2 ? targets : [...targets].reverse()) {
      if (listed.start && round < 0) continue; // started afresh for each run, warmed up then
      const started = listed.start ? await listed.start() : undefined;
      const target = started ? gatewayTarget(listed.name, started) : listed;
      const init = {
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${target.key}` },
        body: chatBody(stream),
      };
      try {
        if (started) await runLoad(target.url, init, connections, 2);
        const cpu = cpuMs(target.pid);
        const pg = postgresCpuMs();
        const r = await runLoad(target.url, init, connections, round < 0 ? 2 : Number(process.env.SECONDS ?? 3));
        if (round < 0) continue; // warm-up: JIT, pools and leases
        const s = (seen[target.name] ??= { cpu: [], pg: [], p50: [], ttfb: [], rps: [] });
        s.cpu.push((cpuMs(target.pid) - cpu) / Math.max(1, r.requests));
        s.pg.push((postgresCpuMs() - pg) / Math.max(1, r.requests));
        s.p50.push(r.p50);
        s.ttfb.push(r.ttfbP50);
        s.rps.push(r.rps);
      } finally {
        await started?.close();
      }
    }
  }
  // The machine's speed drifts by 10-30 % over minutes on these shared 2-core machines: a
  // gateway's CPU over the bare relay's in the same round is steadier than either alone.
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const direct = seen.direct!;
  console.log(
    `${stream ? "stream" : "non-stream"}, ${connections} connection(s), medians of ${direct.rps.length} runs`,
  );
  const isGateway = (name: string) => !["direct", "bare", "floor"].includes(name);
  for (const [name, s] of Object.entries(seen)) {
    const added =
      name === "direct"
        ? ""
        : `  added p50 ${(median(s.p50) - median(direct.p50)).toFixed(3)}  added TTFB ${(median(s.ttfb) - median(direct.ttfb)).toFixed(3)}`;
    console.log(
      `${name.padEnd(7)} ${median(s.rps).toFixed(0).padStart(6)} req/s  p50 ${median(s.p50).toFixed(3)}${added}  CPU ${median(s.cpu).toFixed(3)} ms/req${name === "direct" ? " (client and mock)" : ""}${name === "direct" || name === "bare" ? "" : `  ×${median(s.cpu.map((cpu, i) => cpu / seen.bare!.cpu[i]!)).toFixed(2)} the bare relay's, run by run`}${isGateway(name) ? `  PostgreSQL ${median(s.pg).toFixed(3)} ms/req` : ""}`,
    );
  }
} finally {
  bare.close();
  floor.close();
  for (const g of Object.values(gateways)) await g.close();
  await upstream.close();
}
