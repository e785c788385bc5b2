import { ensureLogPartitions } from "../db/connect";
import { deleteExpiredSessions } from "~/domain/auth/sessions.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { recoverStoppedNodes } from "~/relay/billing/crash-recovery.server";
import { runTestAll } from "~/relay/channel-test-all.server";
import { runScheduledRollup } from "~/domain/usage/rollup-schedule.server";
import { periodFromMinutes } from "~/domain/jobs/schedule";
import { retentionCutoff } from "~/domain/logs/retention";
import { pruneLogsBefore } from "~/domain/logs/retention.server";
import { options } from "~/domain/options/store.server";
import { sweepQuotaReminders } from "~/domain/users/quota-reminder.server";
import { BALANCE_JOB, refreshAllBalances, runScheduledChannelTest } from "~/relay/channel-schedules.server";
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
  /** Recurring period (the timer's tick); on-demand jobs (started from the console) have none. */
  everyMs?: number;
  /**
   * Option-driven schedules (decision 029): the period the operator chose, in ms (0: off). The
   * timer ticks every `everyMs`; a tick runs the job only when it claims the period in the
   * database (jobs/run.ts), so one node runs it per period.
   */
  periodMs?: () => number;
  /** The job_runs row it is recorded under (default: its name); an on-demand twin shares its schedule's. */
  recordAs?: string;
  /** Shown on the channel page's schedule panel. */
  label?: string;
  attempts: number;
  run: () => Promise<string>;
};

/** How often the option-driven schedules look whether they are due. */
export const SCHEDULE_TICK_MS = Math.round(env.SCHEDULE_TICK_SECONDS * 1000);
const HOUR_MS = 60 * 60 * 1000;

async function runLogRetention(): Promise<string> {
  const cutoff = retentionCutoff(options.int("LogRetentionDays"), Date.now());
  if (cutoff === undefined) return "logs are kept forever (LogRetentionDays=0)";
  const result = await pruneLogsBefore(cutoff);
  return `logs before ${new Date(cutoff * 1000).toISOString()}: ${result.dropped.length} monthly partitions dropped (~${result.droppedRows} rows; ${result.dropMs.join("/") || "-"} ms, of which ${result.emptyMs.join("/") || "-"} ms emptying the month (a lock only its readers wait on)), ${result.deletedRows} rows deleted in batches (${result.deleteMs} ms)`;
}

export const JOB_DEFINITIONS: JobDefinition[] = [
  {
    name: "sessions.delete-expired",
    label: "清理过期会话",
    everyMs: 60 * 60 * 1000,
    attempts: 3,
    run: async () => `deleted ${await deleteExpiredSessions()} expired sessions`,
  },
  {
    // Log partitions are created ahead of time so inserts never fall into the default partition.
    name: "logs.ensure-partitions",
    label: "创建日志分区",
    everyMs: 24 * 60 * 60 * 1000,
    attempts: 3,
    run: async () => {
      await ensureLogPartitions(await getDb());
      return "log partitions ensured";
    },
  },
  {
    name: "quota.recover-stopped-nodes",
    label: "回收停止节点的额度",
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
    label: "数据看板汇总",
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
  {
    name: "channels.auto-test",
    label: "自动测试所有通道",
    everyMs: SCHEDULE_TICK_MS,
    periodMs: () => periodFromMinutes(options.float("ChannelTestFrequency"), env.CHANNEL_TEST_FREQUENCY),
    attempts: 1,
    run: runScheduledChannelTest,
  },
  {
    name: BALANCE_JOB,
    label: "更新所有通道余额",
    everyMs: SCHEDULE_TICK_MS,
    periodMs: () => periodFromMinutes(options.float("ChannelUpdateFrequency"), env.CHANNEL_UPDATE_FREQUENCY),
    attempts: 1,
    run: refreshAllBalances,
  },
  {
    // The console's 更新所有余额: the same run, recorded (and shown) under the schedule's row,
    // which startBalanceRefresh claimed before queueing it (one at a time is kept there).
    name: `${BALANCE_JOB}.now`,
    recordAs: BALANCE_JOB,
    attempts: 1,
    run: refreshAllBalances,
  },
  {
    name: "logs.retention",
    label: "清理过期日志",
    everyMs: SCHEDULE_TICK_MS,
    periodMs: () => (options.int("LogRetentionDays") > 0 ? HOUR_MS : 0),
    attempts: 2,
    run: runLogRetention,
  },
  {
    // A sweep, off the relay's path: a crossing of QuotaRemindThreshold is mailed within a tick.
    name: "users.quota-reminders",
    label: "额度提醒邮件",
    everyMs: SCHEDULE_TICK_MS,
    attempts: 1,
    run: async () => {
      const r = await sweepQuotaReminders();
      return `quota reminders: ${r.reminded} users crossed the threshold, ${r.mailed} mailed, ${r.armed} re-armed`;
    },
  },
];

export function findJob(name: string): JobDefinition | undefined {
  return JOB_DEFINITIONS.find((job) => job.name === name);
}
