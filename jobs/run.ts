import { claimJobRun, markJobFinished, markJobStarted } from "~/domain/jobs/job-runs.server";
import type { JobDefinition } from "./definitions";

/**
 * Runs one job the way both runners (BullMQ worker, in-process timer) do: an option-driven
 * schedule first claims its period in `job_runs` (not due, off, or running elsewhere: nothing
 * happens, nothing is written), and every run that happens is recorded there with its outcome,
 * which the channel page shows as the schedule's last run.
 */
export async function runJob(job: JobDefinition): Promise<string> {
  const row = job.recordAs ?? job.name;
  if (job.periodMs) {
    const period = job.periodMs();
    if (period <= 0) return `${job.name}: off`;
    if (!(await claimJobRun(row, period))) return `${job.name}: not due`;
  } else {
    await markJobStarted(row);
  }
  try {
    const message = await job.run();
    await markJobFinished(row, "ok", message);
    return message;
  } catch (error) {
    await markJobFinished(row, "failed", (error as Error).message).catch(() => undefined);
    throw error;
  }
}
