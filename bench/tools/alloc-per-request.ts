import { spawn } from "node:child_process";
import { once } from "node:events";
import { chatBody, startBenchGateway, startFastUpstream } from "../gateway-setup";
import { runLoad } from "../load";

/**
 * What one relayed request allocates on the JavaScript heap, the gateway beside the bare relay:
 * both run with --trace-gc, and the heap's growth between collections (each collection's "before"
 * minus the previous one's "after") is summed over a load window and divided by its requests.
 *
 *   npx tsx bench/tools/alloc-per-request.ts      (STREAM=1 for streamed calls, C connections, default 50)
 */
const stream = Boolean(process.env.STREAM);
const connections = Number(process.env.C ?? 50);
const GC_LINE = /: (?:Scavenge|Mark-Compact|Mark-sweep)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \(/;

/** Megabytes allocated between the collections in `log` (the first one only sets the start). */
function allocatedMb(log: string): { mb: number; collections: number } {
  let previousAfter: number | undefined;
  let mb = 0;
  let collections = 0;
  for (const line of log.split("\n")) {
    const match = GC_LINE.exec(line);
    if (!match) continue;
    const before = Number(match[1]);
    if (previousAfter !== undefined) mb += Math.max(0, before - previousAfter);
    previousAfter = Number(match[2]);
    collections += 1;
  }
  return { mb, collections };
}

async function measure(name: string, url: string, headers: Record<string, string>, output: () => string) {
  await runLoad(url, { headers, body: chatBody(stream) }, connections, 2);
  const from = output().length;
  const result = await runLoad(url, { headers, body: chatBody(stream) }, connections, 6);
  const { mb, collections } = allocatedMb(output().slice(from));
  console.log(`| ${name} | ${result.requests} | ${collections} | ${((mb * 1024) / result.requests).toFixed(1)} |`);
}

const upstream = await startFastUpstream();
let bareLog = "";
const bare = spawn(
  process.execPath,
  ["--trace-gc", "--max-semi-space-size=8", new URL("../bare-relay.mjs", import.meta.url).pathname, upstream.url],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const gateway = await startBenchGateway({ upstream, nodeArgs: ["--trace-gc"] });
try {
  const port = await new Promise<string>((resolve) =>
    bare.stdout!.once("data", (chunk: Buffer) => resolve(String(chunk).trim())),
  );
  bare.stdout!.on("data", (chunk: Buffer) => (bareLog += chunk.toString()));
  console.log(
    `${stream ? "stream" : "non-stream"} c=${connections}\n\n| relay | requests | collections | KB allocated per request |\n|---|---|---|---|`,
  );
  await measure(
    "bare relay",
    `http://127.0.0.1:${port}/v1/chat/completions`,
    { "Content-Type": "application/json", Authorization: "Bearer sk-bench" },
    () => bareLog,
  );
  await measure(
    "gateway",
    `${gateway.server.baseUrl}/v1/chat/completions`,
    { "Content-Type": "application/json", Authorization: `Bearer ${gateway.key}` },
    gateway.server.output,
  );
} finally {
  bare.kill("SIGTERM");
  if (bare.exitCode === null) await once(bare, "exit");
  await gateway.close();
  await upstream.close();
}
