import { chatBody, startBenchGateway } from "../gateway-setup";
import { runLoad } from "../load";
import { cpuMs, rssMb } from "../process-stats";

/** Memory under sustained load: RSS after each 10 s of c=50 non-stream traffic (a leak keeps climbing). NODE_ARGS passes V8 flags. */
const gateway = await startBenchGateway({ nodeArgs: (process.env.NODE_ARGS ?? "").split(" ").filter(Boolean) });
try {
  let total = 0;
  for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round += 1) {
    const cpuBefore = cpuMs(gateway.server.pid);
    const r = await runLoad(
      `${gateway.server.baseUrl}/v1/chat/completions`,
      {
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.key}` },
        body: chatBody(false),
      },
      50,
      10,
    );
    total += r.requests;
    console.log(
      `after ${total} requests: ${r.rps.toFixed(0)} req/s, CPU ${((cpuMs(gateway.server.pid) - cpuBefore) / Math.max(1, r.requests)).toFixed(3)} ms/req, RSS ${rssMb(gateway.server.pid).toFixed(0)} MB, errors ${r.errors}${r.errorSamples.length ? `: ${r.errorSamples.join(" | ")}` : ""}`,
    );
  }
} finally {
  await gateway.close();
}
