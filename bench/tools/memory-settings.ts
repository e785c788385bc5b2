import { readFileSync } from "node:fs";
import { chatBody, startBenchGateway } from "../gateway-setup";
import { runLoad } from "../load";
import { cpuMs, rssMb } from "../process-stats";
import { argsOf, envOf } from "./settings-text";

/**
 * Resident memory after REQUESTS (default 100 k) non-stream calls at fifty connections, for the
 * gateway under several settings started afresh in turn, ROUNDS times (default 2), alternated:
 * with each run's throughput and CPU per request, so a setting that saves memory shows its price.
 * Each setting is `label|NODE_FLAGS|ENV=value …`, separated by `;` in SETTINGS, e.g.
 *   SETTINGS="default||;arenas||MALLOC_ARENA_MAX=2;growth|--heap-growing-percent=20|" npx tsx bench/tools/memory-settings.ts
 */
const settings = (process.env.SETTINGS ?? "default||")
  .split(";")
  .filter(Boolean)
  .map((spec) => {
    const [label = "", flags = "", env = ""] = spec.split("|");
    return { label, nodeArgs: argsOf(flags), env: envOf(env) };
  });
const target = Number(process.env.REQUESTS ?? 100_000);
for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round += 1) {
  for (const setting of round % 2 ? [...settings].reverse() : settings) {
    const gateway = await startBenchGateway({ nodeArgs: setting.nodeArgs, env: setting.env });
    try {
      const init = {
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.key}` },
        body: chatBody(false),
      };
      const url = `${gateway.server.baseUrl}/v1/chat/completions`;
      const pid = gateway.server.pid;
      const cpuBefore = cpuMs(pid);
      let requests = 0;
      let seconds = 0;
      while (requests < target) {
        const run = await runLoad(url, init, 50, 5);
        requests += run.requests;
        seconds += run.requests / run.rps;
      }
      const cpu = (cpuMs(pid) - cpuBefore) / requests;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const anon = Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      console.log(
        `${setting.label.padEnd(12)} RSS ${rssMb(pid).toFixed(1)} MB (anonymous ${anon.toFixed(1)}) after ${requests} requests; ${Math.round(requests / seconds)} req/s, CPU ${cpu.toFixed(3)} ms/req`,
      );
    } finally {
      await gateway.close();
    }
  }
}
