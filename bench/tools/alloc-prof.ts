import { rmSync } from "node:fs";
import { chatBody, startBenchGateway } from "../gateway-setup";
import { runLoad } from "../load";

/**
 * Allocation profile of the gateway under load: C connections (default 50) of chat for 5 s
 * (STREAM=1: streamed) after a warm-up, sampled by bench/tools/alloc-sampler.mjs, then printed by
 * alloc-summary.ts per request.
 *
 *   npx tsx bench/tools/alloc-prof.ts
 */
const file = "/tmp/alloc.heapprofile";
const gateway = await startBenchGateway({
  nodeArgs: ["--import", new URL("./alloc-sampler.mjs", import.meta.url).pathname],
});
try {
  const url = `${gateway.server.baseUrl}/v1/chat/completions`;
  const init = {
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.key}` },
    body: chatBody(Boolean(process.env.STREAM)),
  };
  await runLoad(url, init, Number(process.env.C ?? 50), 3);
  process.kill(gateway.server.pid, "SIGUSR2"); // the window starts here
  await new Promise((r) => setTimeout(r, 300));
  const result = await runLoad(url, init, Number(process.env.C ?? 50), 5);
  rmSync(file, { force: true });
  process.kill(gateway.server.pid, "SIGUSR2");
  await new Promise((r) => setTimeout(r, 1500));
  console.log(`${result.requests} requests in the window`);
  process.env.REQUESTS = String(result.requests);
  process.argv[2] = file;
  await import("./alloc-summary");
} finally {
  await gateway.close();
}
