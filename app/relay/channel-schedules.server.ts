import { claimJobRun, releaseJobRun, writeJobProgress } from "~/domain/jobs/job-runs.server";
import { getDb } from "~/utils/db.server";
import { refreshChannelBalance } from "./channel-balance.server";
import { claimTestAll, runTestAll } from "./channel-test-all.server";

/**
 * The channel schedules' work (decision 029); when they run is the job runner's business
 * (jobs/definitions.ts). Both keep their progress where every node's console reads it.
 */
export const BALANCE_JOB = "channels.refresh-balances";

/** The scheduled test of every channel: the console's "test all", unless one is already going. */
export async function runScheduledChannelTest(): Promise<string> {
  if (!(await claimTestAll())) return "a test of all channels is already running";
  const progress = await runTestAll();
  return `tested ${progress.done} channels, ${progress.failed} failed, ${progress.disabled} disabled, ${progress.enabled} enabled`;
}

/** Types whose balance is never asked for: Midjourney, Suno and the like have no such endpoint. */
const NO_BALANCE_TYPES = [2, 5, 36];

/**
 * The console's 更新所有余额: claims the run's row before queueing it, so the page shows the run
 * going (0 of every channel) from this answer on, whenever a worker takes it. One at a time: a
 * press while one goes, scheduled or asked for, is refused. A queue that refuses gives the claim back.
 */
export async function startBalanceRefresh(
  enqueue: () => Promise<void>,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!(await claimJobRun(BALANCE_JOB, 0))) return { ok: false, message: "余额更新已在运行中" };
  // Whatever stops the run from being queued gives the claim back (best effort: a claim that
  // cannot be given back goes stale on its own, STALE_RUN_MS). A database error is the caller's
  // to answer, as for any page; a queue's refusal is the press's answer.
  const release = () => releaseJobRun(BALANCE_JOB).catch(() => undefined);
  try {
    const db = await getDb();
    const { count } = await db
      .selectFrom("channels")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("type", "not in", NO_BALANCE_TYPES)
      .executeTakeFirstOrThrow();
    await writeJobProgress(BALANCE_JOB, 0, Number(count), { updated: 0 });
  } catch (error) {
    await release();
    throw error;
  }
  try {
    await enqueue();
    return { ok: true };
  } catch (error) {
    await release();
    return { ok: false, message: (error as Error).message };
  }
}

/**
 * Refreshes the balance of every channel, one after the other, writing progress as it goes.
 * Types without a balance endpoint are skipped quietly (their refresh answers not ok at once).
 */
export async function refreshAllBalances(): Promise<string> {
  const db = await getDb();
  const channels = await db
    .selectFrom("channels")
    .selectAll()
    .where("type", "not in", NO_BALANCE_TYPES)
    .orderBy("id")
    .execute();
  let updated = 0;
  let done = 0;
  await writeJobProgress(BALANCE_JOB, 0, channels.length, { updated });
  for (const channel of channels) {
    const result = await refreshChannelBalance(channel).catch(() => ({ ok: false }));
    if (result.ok) updated += 1;
    done += 1;
    await writeJobProgress(BALANCE_JOB, done, channels.length, { updated });
  }
  return `refreshed the balance of ${updated} of ${channels.length} channels`;
}
