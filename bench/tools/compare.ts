import { spawn } from "node:child_process";
import { once } from "node:events";
import { chatBody, startBenchGateway, startFastUpstream, type BenchGateway } from "../gateway-setup";
import { runLoad } from "../load";
import { cpuMs } from "../process-stats";

/**
 * Side-by-side runs for A/B work on the relay, less noisy than one long run: short runs
 * alternating direct-to-mock, the bare node:http proxy, this build's gateway and, with
 * BASELINE_DIR, another build's (a checkout of another commit with its own `npm run build` and a
 * node_modules link) — all against the near-free mock of bench:relay, so the machine's drift hits them alike. Prints
 * medians: req/s, p50, time to first byte and CPU per request, with what each adds to direct.
 *
 *   C=1|50  ROUNDS=6  SECONDS=3  STREAM=1  BASE_FIRST=1 (the baseline gateway starts first)
 *   BASE_ENV / HEAD_ENV="NAME=value …"  environment for one gateway only (BASELINE_DIR=. compares
 *                                       one build with itself under two settings)
 *   git worktree add /tmp/base HEAD~1 && ln -s $PWD/node_modules /tmp/base/ && (cd /tmp/base && npm run build)
 *   BASELINE_DIR=/tmp/base npx tsx bench/tools/compare.ts
 */
const connections = Number(process.env.C ?? 50);
const stream = Boolean(process.env.STREAM);
const envOf = (text = "") =>
  Object.fromEntries(
    text
      .split(" ")
      .filter(Boolean)
      .map((pair) => pair.split("=") as [string, string]),
  );
// The near-free mock of bench:relay: the relays in front of it are what is measured.
const upstream = await startFastUpstream();
const bare = spawn(process.execPath, [new URL("../bare-relay.mjs", import.meta.url).pathname, upstream.url], {
  stdio: ["ignore", "pipe", "inherit"],
});
const gateways: Record<string, BenchGateway> = {};
try {
  const barePort = String((await once(bare.stdout!, "data"))[0]).trim();
  // The gateway started first measured ~10 % cheaper per request than an identical one started
  // after it (same build, same rounds): run an A/B both ways (BASE_FIRST=1) before believing it.
  const startHead = async () => {
    gateways.head = await startBenchGateway({ upstream, env: envOf(process.env.HEAD_ENV) });
  };
  if (!process.env.BASE_FIRST) await startHead();
  if (process.env.BASELINE_DIR)
    gateways.base = await startBenchGateway({
      cwd: process.env.BASELINE_DIR,
      upstream,
      env: envOf(process.env.BASE_ENV),
    });
  if (process.env.BASE_FIRST) await startHead();
  const targets: [string, string, string, number][] = [
    ["direct", `${upstream.url}/v1/chat/completions`, "sk-bench", process.pid],
    ["bare", `http://127.0.0.1:${barePort}/v1/chat/completions`, "sk-bench", bare.pid!],
    ...Object.entries(gateways).map(([name, g]): [string, string, string, number] => [
      name,
      `${g.server.baseUrl}/v1/chat/completions`,
      g.key,
      g.server.pid,
    ]),
  ];
  const seen: Record<string, { cpu: number[]; p50: number[]; ttfb: number[]; rps: number[] }> = {};
  for (let round = -1; round < Number(process.env.ROUNDS ?? 6); round += 1) {
    for (const [name, url, key, pid] of round % 2 ? targets : [...targets].reverse()) {
      const init = {
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body: chatBody(stream),
      };
      const cpu = cpuMs(pid);
      const r = await runLoad(url, init, connections, round < 0 ? 2 : Number(process.env.SECONDS ?? 3));
      if (round < 0) continue; // warm-up: JIT, pools and leases
      const s = (seen[name] ??= { cpu: [], p50: [], ttfb: [], rps: [] });
      s.cpu.push((cpuMs(pid) - cpu) / Math.max(1, r.requests));
      s.p50.push(r.p50);
      s.ttfb.push(r.ttfbP50);
      s.rps.push(r.rps);
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const direct = seen.direct!;
  console.log(
    `${stream ? "stream" : "non-stream"}, ${connections} connection(s), medians of ${direct.rps.length} runs`,
  );
  for (const [name, s] of Object.entries(seen)) {
    const added =
      name === "direct"
        ? ""
        : `  added p50 ${(median(s.p50) - median(direct.p50)).toFixed(3)}  added TTFB ${(median(s.ttfb) - median(direct.ttfb)).toFixed(3)}`;
    console.log(
      `${name.padEnd(7)} ${median(s.rps).toFixed(0).padStart(6)} req/s  p50 ${median(s.p50).toFixed(3)}${added}  CPU ${median(s.cpu).toFixed(3)} ms/req${name === "direct" ? " (client and mock)" : ""}`,
    );
  }
} finally {
  bare.kill();
  for (const g of Object.values(gateways)) await g.close();
  await upstream.close();
}
