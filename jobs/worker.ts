import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { entryOf } from "../server/entry";
import { bootApp } from "../server/boot";
import { installJsonConsole } from "../server/json-console";

/**
 * `npm run worker`: background jobs on BullMQ. It loads the same server build as the web
 * process (one module graph: same DB setup, same domain code) and needs REDIS_URL. Web
 * processes run the same worker unless WORKERS=off; dedicated workers are optional.
 */
if (process.env.LOG_FORMAT === "json") installJsonConsole();
if (!process.env.REDIS_URL) {
  console.error("npm run worker needs REDIS_URL (without it, jobs run inside the web process).");
  process.exit(1);
}
const buildPath = resolve("build/server/index.js");
if (!existsSync(buildPath)) {
  console.error("No server build found: run `npm run build` first.");
  process.exit(1);
}
process.env.NODE_ENV ??= "production";
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
const entry = entryOf(build);
await bootApp(entry);
// bootApp started it already unless WORKERS=off; this returns the running one (or starts it).
const worker = await entry.bootSteps.startBullWorker();

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[worker] ${signal}: finishing the current jobs`);
  await worker.close();
  await entry.shutdownApp();
  process.exit(0);
}
process.once("SIGTERM", () => void stop("SIGTERM"));
process.once("SIGINT", () => void stop("SIGINT"));
