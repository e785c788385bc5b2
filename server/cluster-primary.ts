import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";

/** As app/utils/metrics.server.ts asks it (the primary loads none of the app). */
const CLUSTER_METRICS_MESSAGE = "switchyard:metrics";

/** A web process that lived this long before dying is restarted at once; one dying sooner waits longer each time. */
const STEADY_LIFE_MS = 60_000;
const FIRST_RESTART_DELAY_MS = 1_000;
const LONGEST_RESTART_DELAY_MS = 30_000;
/** How long the web processes get to finish in-flight requests after SIGTERM (each has its own 10 s grace) before they are killed. */
const SHUTDOWN_WAIT_MS = 20_000;

/**
 * The primary of `npm start` with several web processes (decision 038): it loads nothing of the
 * app, forks `count` processes that share the port (node:cluster hands out connections), starts
 * a new one for any that dies, and passes SIGTERM/SIGINT on for a graceful stop.
 *
 * One process, slot 1, runs the background jobs (the BullMQ worker) if the deployment wants
 * them in web processes; the others are told WORKERS=off. Its replacement takes the role over.
 */
export function runWebProcesses(count: number): void {
  const jobsWanted = (process.env.WORKERS ?? "on") === "on";
  const slots = new Map<Worker, { slot: number; startedAt: number }>();
  const restartDelay = new Map<number, number>();
  let stopping = false;
  // Until one process has served, a process that dies is a deployment that cannot start (an
  // invalid setting, a missing build): restarting would loop, so the primary stops with it.
  let servedOnce = false;
  cluster.on("listening", () => (servedOnce = true));

  const start = (slot: number) => {
    const worker = cluster.fork({ WEB_PROCESS_SLOT: String(slot), WORKERS: slot === 1 && jobsWanted ? "on" : "off" });
    slots.set(worker, { slot, startedAt: Date.now() });
  };

  // A web process scraped for /metrics asks here for every process's metrics, summed.
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== CLUSTER_METRICS_MESSAGE || typeof message.id !== "string") return;
    const id = message.id;
    // The asking process may have died meanwhile: its answer is dropped, not thrown.
    const answer = (reply: { text?: string; error?: string }) => {
      if (worker.isConnected())
        worker.send({ type: CLUSTER_METRICS_MESSAGE, id, ...reply }, undefined, () => undefined);
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: Error) => answer({ error: error.message }),
    );
  });

  cluster.on("exit", (worker, code, signal) => {
    const entry = slots.get(worker);
    slots.delete(worker);
    if (stopping || !entry) {
      if (slots.size === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (!servedOnce && code !== 0) {
      console.error(`[cluster] web process ${entry.slot} failed to start (code ${code}); stopping`);
      stopping = true;
      for (const other of slots.keys()) other.process.kill("SIGTERM");
      process.exitCode = code ?? 1;
      if (slots.size === 0) process.exit(process.exitCode);
      return;
    }
    const lived = Date.now() - entry.startedAt;
    const delay =
      lived >= STEADY_LIFE_MS
        ? FIRST_RESTART_DELAY_MS
        : Math.min(LONGEST_RESTART_DELAY_MS, (restartDelay.get(entry.slot) ?? FIRST_RESTART_DELAY_MS / 2) * 2);
    restartDelay.set(entry.slot, delay);
    console.error(
      `[cluster] web process ${entry.slot} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting another in ${delay / 1000} s`,
    );
    setTimeout(() => {
      if (!stopping) start(entry.slot);
    }, delay);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`[cluster] ${signal}: stopping ${slots.size} web processes`);
    if (slots.size === 0) process.exit(0);
    for (const worker of slots.keys()) worker.process.kill(signal);
    setTimeout(() => {
      for (const worker of slots.keys()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, SHUTDOWN_WAIT_MS).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));

  console.log(`[cluster] starting ${count} web processes on one port (WEB_CONCURRENCY; decision 038)`);
  for (let slot = 1; slot <= count; slot += 1) start(slot);
}
