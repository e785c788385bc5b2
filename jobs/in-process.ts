import { JOB_DEFINITIONS } from "./definitions";
import { runJob } from "./run";

/** Embedded mode (no REDIS_URL): the recurring jobs run on timers inside the web process. */
let timers: NodeJS.Timeout[] = [];

export function startInProcessJobs(): void {
  if (timers.length) return;
  timers = JOB_DEFINITIONS.flatMap((job) => {
    if (!job.everyMs) return [];
    const timer = setInterval(() => {
      runJob(job).catch((error: unknown) => console.error(`[jobs] ${job.name} failed`, error));
    }, job.everyMs);
    timer.unref();
    return [timer];
  });
}

export function stopInProcessJobs(): void {
  for (const timer of timers) clearInterval(timer);
  timers = [];
}

/** Runs an on-demand job in this process without waiting for it (embedded mode). */
export function runInProcess(name: string): void {
  const job = JOB_DEFINITIONS.find((j) => j.name === name);
  if (job) runJob(job).catch((error: unknown) => console.error(`[jobs] ${name} failed`, error));
}
