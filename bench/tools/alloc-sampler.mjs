// Loaded into a gateway with `node --import`: samples every allocation (collected ones too, so
// short-lived per-request garbage is counted) from start; SIGUSR2 writes the sampling profile to
// ALLOC_PROFILE_FILE (default /tmp/alloc.heapprofile) and starts a new one. Read it with
// bench/tools/alloc-summary.ts. ALLOC_PROMOTED_ONLY=1 leaves out what a scavenge collected: what
// remains is what lived long enough to be promoted, the garbage the major collector pays for.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import process from "node:process";

const file = process.env.ALLOC_PROFILE_FILE || "/tmp/alloc.heapprofile";
const session = new Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
const start = () =>
  post("HeapProfiler.startSampling", {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.ALLOC_PROMOTED_ONLY !== "1",
  });
await start();
process.on("SIGUSR2", async () => {
  const { profile } = await post("HeapProfiler.stopSampling");
  writeFileSync(file, JSON.stringify(profile));
  await start();
});
