import { readJobRuns } from "~/domain/jobs/job-runs.server";
import { nextRunAt, STALE_RUN_MS, type ScheduleView } from "~/domain/jobs/schedule";
import { JOB_DEFINITIONS } from "./definitions";

export type { ScheduleView };

export type LongRunView = { running: boolean; done: number; total: number; updated: number; finishedAt?: number };

const seconds = (ms: number | null | undefined) => (ms ? Math.floor(ms / 1000) : undefined);

/** Every recurring job with its last and next run, as recorded in job_runs by whichever node ran it. */
export async function readSchedules(now = Date.now()): Promise<{ schedules: ScheduleView[]; balances: LongRunView }> {
  const runs = await readJobRuns();
  // A run whose process died says "running" until it is stale; the page stops waiting for it then.
  for (const run of runs.values())
    if (run.running && now - (run.last_started_at ?? 0) >= STALE_RUN_MS) run.running = false;
  const schedules = JOB_DEFINITIONS.filter((job) => job.everyMs && job.label).map((job): ScheduleView => {
    const run = runs.get(job.name);
    const state = run ? { lastStartedAt: run.last_started_at, running: run.running } : undefined;
    const period = job.periodMs ? job.periodMs() : (job.everyMs ?? 0);
    const next = nextRunAt(state, period, now);
    return {
      name: job.name,
      label: job.label ?? job.name,
      lastRunAt: seconds(run?.last_started_at),
      outcome: run?.running ? "running" : (run?.last_outcome ?? ""),
      message: run?.last_message ?? "",
      running: run?.running ?? false,
      nextRunAt: seconds(next),
      off: next === undefined,
    };
  });
  const balance = runs.get("channels.refresh-balances");
  let updated = 0;
  try {
    updated = Number((JSON.parse(balance?.progress_detail || "{}") as { updated?: number }).updated ?? 0);
  } catch {}
  return {
    schedules,
    balances: {
      running: balance?.running ?? false,
      done: balance?.progress_done ?? 0,
      total: balance?.progress_total ?? 0,
      updated,
      finishedAt: seconds(balance?.last_finished_at),
    },
  };
}
