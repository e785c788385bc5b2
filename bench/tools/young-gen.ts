import { readFileSync, rmSync } from "node:fs";
import { chatBody, startBenchGateway } from "../gateway-setup";
import { runLoad } from "../load";
import { cpuMs, rssMb } from "../process-stats";

/**
 * The gateway under load with each young-generation size in SEMI (MB, comma-separated; default
 * "2,16"), alternated ROUNDS times: throughput, p50/p99/longest at one and fifty connections, CPU
 * per request, RSS, and the event loop's delay and GC pauses (bench/tools/loop-monitor.mjs).
 *
 *   SEMI=2,8,16 ROUNDS=2 npx tsx bench/tools/young-gen.ts
 */
const sizes = (process.env.SEMI ?? "2,16").split(",").map((s) => s.trim());
const rounds = Number(process.env.ROUNDS ?? 2);
const monitorFile = "/tmp/young-gen-loop.log";
process.env.LOOP_MONITOR_FILE = monitorFile;

for (let round = 0; round < rounds; round += 1) {
  for (const semi of sizes) {
    rmSync(monitorFile, { force: true });
    const gateway = await startBenchGateway({
      nodeArgs: [`--max-semi-space-size=${semi}`, "--import", new URL("./loop-monitor.mjs", import.meta.url).href],
    });
    try {
      const url = `${gateway.server.baseUrl}/v1/chat/completions`;
      const init = {
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.key}` },
        body: chatBody(false),
      };
      await runLoad(url, init, 50, 3);
      for (const connections of [1, 50]) {
        const cpuBefore = cpuMs(gateway.server.pid);
        const r = await runLoad(url, init, connections, 8);
        const cpu = (cpuMs(gateway.server.pid) - cpuBefore) / Math.max(1, r.requests);
        console.log(
          `semi ${semi} MB c=${connections}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} / p99 ${r.p99.toFixed(2)} / longest ${r.max.toFixed(1)} ms, CPU ${cpu.toFixed(3)} ms/req, RSS ${rssMb(gateway.server.pid).toFixed(0)} MB`,
        );
      }
      console.log(
        readFileSync(monitorFile, "utf8")
          .trim()
          .split("\n")
          .slice(-2)
          .map((line) => `    ${line}`)
          .join("\n"),
      );
    } finally {
      await gateway.close();
    }
  }
}
