import type { Selectable } from "kysely";
import type { JobRunsTable } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { STALE_RUN_MS } from "./schedule";

/**
 * The `job_runs` table (migration 0014): each recurring job's last start, finish and outcome,
 * and a long run's progress. Written by the job runner on whichever node runs the job (BullMQ
 * worker or in-process timer) and read by the channel page, so every node shows the same.
 */
export type JobRun = Selectable<JobRunsTable>;

export async function readJobRuns(): Promise<Map<string, JobRun>> {
  const db = await getDb();
  const rows = await db.selectFrom("job_runs").selectAll().execute();
  return new Map(rows.map((row) => [row.name, row]));
}

export async function readJobRun(name: string): Promise<JobRun | undefined> {
  const db = await getDb();
  return db.selectFrom("job_runs").selectAll().where("name", "=", name).executeTakeFirst();
}

/**
 * Claims a run: succeeds only when the last start is at least `periodMs` ago (0: any time) and
 * no live run holds the row. One statement, so two nodes ticking together start it once.
 */
export async function claimJobRun(name: string, periodMs: number, now = Date.now()): Promise<boolean> {
  const db = await getDb();
  const claimed = await db
    .insertInto("job_runs")
    .values({ name, last_started_at: now, running: true, progress_total: 0, progress_done: 0, progress_detail: "" })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet({ last_started_at: now, running: true, progress_total: 0, progress_done: 0, progress_detail: "" })
        .where((eb) =>
          eb.and([
            eb.or([eb("job_runs.last_started_at", "is", null), eb("job_runs.last_started_at", "<=", now - periodMs)]),
            eb.or([eb("job_runs.running", "=", false), eb("job_runs.last_started_at", "<", now - STALE_RUN_MS)]),
          ]),
        ),
    )
    .returning("name")
    .executeTakeFirst();
  return Boolean(claimed);
}

/** A run of a job the timer itself keeps to one per period (BullMQ scheduler, single process): recorded, not claimed. */
export async function markJobStarted(name: string, now = Date.now()): Promise<void> {
  const db = await getDb();
  await db
    .insertInto("job_runs")
    .values({ name, last_started_at: now, running: true })
    .onConflict((oc) => oc.column("name").doUpdateSet({ last_started_at: now, running: true }))
    .execute();
}

/**
 * Gives back a claim whose run never started (its queue refused it): not running, nothing
 * recorded as finished. The claim's start time stays, so a schedule sharing the row waits a
 * period from it.
 */
export async function releaseJobRun(name: string): Promise<void> {
  const db = await getDb();
  await db.updateTable("job_runs").set({ running: false }).where("name", "=", name).execute();
}

export async function markJobFinished(
  name: string,
  outcome: "ok" | "failed",
  message: string,
  now = Date.now(),
): Promise<void> {
  const db = await getDb();
  await db
    .updateTable("job_runs")
    .set({ running: false, last_finished_at: now, last_outcome: outcome, last_message: message.slice(0, 500) })
    .where("name", "=", name)
    .execute();
}

/** Progress of a long run (what the console shows while it goes); detail is a short JSON of counters. */
export async function writeJobProgress(
  name: string,
  done: number,
  total: number,
  detail: Record<string, number> = {},
): Promise<void> {
  const db = await getDb();
  await db
    .updateTable("job_runs")
    .set({ progress_done: done, progress_total: total, progress_detail: JSON.stringify(detail) })
    .where("name", "=", name)
    .execute();
}
