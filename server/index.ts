import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { runWebProcesses } from "./cluster-primary";
import { installJsonConsole } from "./json-console";
import { webConcurrency } from "./web-concurrency";

process.env.NODE_ENV ??= "production";
if (process.env.LOG_FORMAT === "json") installJsonConsole();

/** Loaded only where it serves: the primary of several web processes keeps none of the app (~60 MB less). */
async function serveWeb(): Promise<void> {
  const { serveWeb: serve } = await import("./serve-web");
  await serve();
}

if (cluster.isPrimary) {
  const { count, note } = webConcurrency(process.env, availableParallelism());
  if (note) console.warn(`[server] ${note}`);
  if (count > 1) runWebProcesses(count);
  else await serveWeb();
} else {
  await serveWeb();
}
