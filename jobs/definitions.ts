import { ensureLogPartitions } from "../db/connect";
import { deleteExpiredSessions } from "~/domain/auth/sessions.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { recoverStoppedNodes } from "~/relay/billing/crash-recovery.server";
import { runTestAll } from "~/relay/channel-test-all.server";
import { runScheduledRollup } from "~/domain/usage/rollup-schedule.server";
import { pollMidjourneyTasks } from "~/relay/tasks/mj-poll.server";
import { pollSunoTasks } from "~/relay/tasks/suno-poll.server";

/**
 * Recurring background work. A definition is a name, a period and an idempotent handler; the
 * same handlers run under BullMQ job schedulers (in web processes unless WORKERS=off, and in
 * `npm run worker` processes, when REDIS_URL is set) or on
 * in-process timers (embedded mode). Payloads carry ids only, so a retried job is harmless.
 */
export type JobDefinition = {
  name: string;
  /** Recurring period; on-demand jobs (started from the console) have none. */
  everyMs?: number;
  attempts: number;
  run: () => Promise<string>;
};

export const JOB_DEFINITIONS: JobDefinition[] = [
  {
    name: "sessions.delete-expired",
    everyMs: 60 * 60 * 1000,
    attempts: 3,
    run: async () => `deleted ${await deleteExpiredSessions()} expired sessions`,
  },
  {
    // Log partitions are created ahead of time so inserts never fall into the default partition.
    name: "logs.ensure-partitions",
    everyMs: 24 * 60 * 60 * 1000,
    attempts: 3,
    run: async () => {
      await ensureLogPartitions(await getDb());
      return "log partitions ensured";
    },
  },
  {
    name: "quota.recover-stopped-nodes",
    everyMs: env.RECOVERY_SWEEP_SECONDS * 1000,
    attempts: 3,
    run: async () => {
      const r = await recoverStoppedNodes();
      return `stopped processes: ${r.replayed} journaled settlements written, ${r.returned} quota leases returned, ${r.refunded} old reservations refunded`;
    },
  },
  {
    // Checks every minute; rolls up only when DataExportEnabled and DataExportInterval has passed.
    name: "usage.rollup",
    everyMs: 60 * 1000,
    attempts: 2,
    run: runScheduledRollup,
  },
  {
    // Midjourney and Suno tasks until their final state (decision 030); the reference polls every 15 s.
    name: "tasks.poll-midjourney",
    everyMs: env.TASK_POLL_INTERVAL_MS,
    attempts: 1,
    run: () => pollMidjourneyTasks(),
  },
  {
    name: "tasks.poll-suno",
    everyMs: env.TASK_POLL_INTERVAL_MS,
    attempts: 1,
    run: pollSunoTasks,
  },
  {
    name: "channels.test-all",
    attempts: 1,
    run: async () => {
      const progress = await runTestAll();
      return `tested ${progress.done} channels, ${progress.failed} failed, ${progress.disabled} disabled, ${progress.enabled} enabled`;
    },
  },
];

export function findJob(name: string): JobDefinition | undefined {
  return JOB_DEFINITIONS.find((job) => job.name === name);
}
