import { chatBody, startBenchGateway } from "../gateway-setup";
import { runLoad } from "../load";

/**
 * Load for profiling: C connections (default 1) of chat for SECONDS (default 6; STREAM=1: streamed).
 * With PROF=1 the gateway writes a V8 CPU profile to /tmp/prof when it stops.
 */
const gateway = await startBenchGateway({
  nodeArgs: process.env.PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROF_DIR ?? "/tmp/prof"}`] : [],
});
try {
  const result = await runLoad(
    `${gateway.server.baseUrl}/v1/chat/completions`,
    {
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.key}` },
      body: chatBody(Boolean(process.env.STREAM)),
    },
    Number(process.env.C ?? 1),
    Number(process.env.SECONDS ?? 6),
  );
  console.log(result);
} finally {
  await gateway.close();
}
