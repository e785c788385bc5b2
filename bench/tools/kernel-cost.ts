import { readdirSync, readFileSync } from "node:fs";
import { chatBody, startBenchGateway, startComparisonRelay, startFastUpstream } from "../gateway-setup";
import { runLoad } from "../load";
import { statFields, TICK_MS } from "../process-stats";

/**
 * What a relayed request costs the kernel beside the JavaScript: per request, each relay's user and
 * system CPU, minor page faults, voluntary and involuntary context switches, and each kind of
 * thread's CPU. The bare relay, the floor relay and the gateway in turn, three rounds (the first a
 * warm-up), C connections (default 50) for SECONDS (default 4); STREAM=1 for streamed calls.
 *
 *   npx tsx bench/tools/kernel-cost.ts
 */
function stats(pid: number) {
  const f = statFields(`/proc/${pid}/stat`);
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    userMs: Number(f[11]) * TICK_MS,
    sysMs: Number(f[12]) * TICK_MS,
    minflt: Number(f[7]),
    vcsw: field("voluntary_ctxt_switches"),
    ivcsw: field("nonvoluntary_ctxt_switches"),
  };
}
/** CPU ms of each kind of thread (the main thread, V8's workers, libuv's pool …), by name. */
function threadsMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const task = `/proc/${pid}/task/${tid}`;
      const name = tid === String(pid) ? "main" : readFileSync(`${task}/comm`, "utf8").trim().replace(/\d+$/, "");
      const fields = statFields(`${task}/stat`);
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return byName;
}
const connections = Number(process.env.C ?? 50);
const upstream = await startFastUpstream();
const bare = await startComparisonRelay("bare", upstream);
const floor = await startComparisonRelay("floor", upstream);
const gateway = await startBenchGateway({ upstream });
const targets = [
  { name: "bare", url: bare.url, key: "sk-bench", pid: bare.pid },
  { name: "floor", url: floor.url, key: "sk-bench", pid: floor.pid },
  { name: "gateway", url: `${gateway.server.baseUrl}/v1/chat/completions`, key: gateway.key, pid: gateway.server.pid },
];
try {
  for (let round = 0; round < 3; round += 1) {
    for (const t of targets) {
      const init = {
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${t.key}` },
        body: chatBody(Boolean(process.env.STREAM)),
      };
      const before = stats(t.pid);
      const threadsBefore = threadsMs(t.pid);
      const r = await runLoad(t.url, init, connections, Number(process.env.SECONDS ?? 4));
      const after = stats(t.pid);
      const threadsAfter = threadsMs(t.pid);
      const per = (k: keyof typeof before) => ((after[k] - before[k]) / r.requests).toFixed(k.endsWith("Ms") ? 4 : 3);
      if (round === 0) continue; // warm-up
      console.log(
        `${t.name.padEnd(8)} ${Math.round(r.rps)} req/s  user ${per("userMs")} sys ${per("sysMs")} ms/req  minflt ${per("minflt")}  vcsw ${per("vcsw")}  ivcsw ${per("ivcsw")}`,
      );
      const threads = [...threadsAfter]
        .map(([name, ms]) => [name, (ms - (threadsBefore.get(name) ?? 0)) / r.requests] as const)
        .filter(([, ms]) => ms > 0.0005)
        .map(([name, ms]) => `${name} ${ms.toFixed(4)}`);
      console.log(`         threads, CPU ms/req: ${threads.join(", ")}`);
    }
  }
} finally {
  await gateway.close();
  bare.close();
  floor.close();
  await upstream.close();
}
