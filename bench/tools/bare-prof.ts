import { spawn } from "node:child_process";
import { once } from "node:events";
import { chatBody, startFastUpstream } from "../gateway-setup";
import { runLoad } from "../load";

/**
 * The bare relay (RELAY=floor: the floor relay) under the same load as bench/tools/prof.ts
 * (C connections, default 50, 6 s), writing its CPU profile to /tmp/prof-bare (/tmp/prof-floor):
 * read beside the gateway's with profile-summary.ts (DIR=/tmp/prof-bare) to see which costs every
 * relay pays and which are the gateway's own.
 */
const relay = process.env.RELAY === "floor" ? "floor" : "bare";
const upstream = await startFastUpstream();
const bare = spawn(
  process.execPath,
  [
    "--cpu-prof",
    `--cpu-prof-dir=/tmp/prof-${relay}`,
    new URL(`../${relay}-relay.mjs`, import.meta.url).pathname,
    upstream.url,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
try {
  const port = String((await once(bare.stdout!, "data"))[0]).trim();
  const result = await runLoad(
    `http://127.0.0.1:${port}/v1/chat/completions`,
    {
      headers: { "Content-Type": "application/json", Authorization: "Bearer sk-bench" },
      body: chatBody(Boolean(process.env.STREAM)),
    },
    Number(process.env.C ?? 50),
    6,
  );
  console.log(`${result.rps.toFixed(0)} req/s, ${result.requests} requests`);
} finally {
  bare.kill("SIGTERM");
  if (bare.exitCode === null) await once(bare, "exit");
  await upstream.close();
}
