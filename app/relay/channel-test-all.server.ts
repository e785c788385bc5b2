import { setChannelStatus } from "~/domain/channels/channels.server";
import { mailRootAboutChannels, type ChannelStatusChange } from "~/domain/channels/status-mail.server";
import { options } from "~/domain/options/store.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { getRedis, isRedisEnabled, redisNamespace } from "~/utils/redis.server";
import { testChannel } from "./channel-test.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import type { Result } from "~/utils/result";

/**
 * "Test all channels" as a background job, with progress the console can show. Progress lives
 * in Redis when configured (the job may run on a worker), else in this process.
 */
export type TestAllProgress = {
  running: boolean;
  total: number;
  done: number;
  failed: number;
  disabled: number;
  enabled: number;
  finishedAt: number;
  /** When the run was queued and when a worker started it (unix seconds; 0: not yet). */
  queuedAt?: number;
  startedAt?: number;
};

/** What the console shows: the progress, and whether the queued run still waits for a worker. */
export type TestAllView = TestAllProgress & { waitingForWorker: boolean };

const key = () => `${redisNamespace()}channel-test-all`;
let local: TestAllProgress = { running: false, total: 0, done: 0, failed: 0, disabled: 0, enabled: 0, finishedAt: 0 };

const now = () => Math.floor(Date.now() / 1000);

export async function readTestAllProgress(): Promise<TestAllView> {
  let progress = local;
  if (isRedisEnabled()) {
    // Redis away: this node's last known progress rather than a failed page.
    const raw = await getRedis()
      .get(key())
      .catch(() => null);
    progress = raw ? (JSON.parse(raw) as TestAllProgress) : { ...local };
  }
  // Queued (by this version: queuedAt set) but never started: nobody runs the queue.
  const waitingForWorker =
    progress.running &&
    Boolean(progress.queuedAt) &&
    !progress.startedAt &&
    now() - (progress.queuedAt ?? 0) >= env.JOB_PICKUP_WARN_SECONDS;
  return { ...progress, waitingForWorker };
}

async function writeProgress(progress: TestAllProgress) {
  local = progress;
  if (isRedisEnabled()) await getRedis().set(key(), JSON.stringify(progress), "EX", 24 * 3600);
}

/** Claims the run (one at a time across nodes); false when one is already going. */
export async function claimTestAll(): Promise<boolean> {
  if (isRedisEnabled()) {
    const claimed = await getRedis().set(`${key()}:lock`, "1", "EX", 3600, "NX");
    if (!claimed) return false;
  } else if (local.running) return false;
  await writeProgress({
    running: true,
    total: 0,
    done: 0,
    failed: 0,
    disabled: 0,
    enabled: 0,
    finishedAt: 0,
    queuedAt: now(),
  });
  return true;
}

export const QUEUE_UNAVAILABLE_MESSAGE = "后台任务队列暂时不可用（无法连接 Redis），请稍后重试";

/**
 * Claims the run and hands it to the queue. While Redis is away this answers at once with a
 * clear message (and leaves no claim behind) instead of failing the page.
 */
export async function startTestAll(enqueue: () => Promise<void>): Promise<Result> {
  let claimed: boolean;
  try {
    claimed = await claimTestAll();
  } catch {
    return { ok: false, message: QUEUE_UNAVAILABLE_MESSAGE };
  }
  if (!claimed) return { ok: false, message: "测试已在运行中" };
  try {
    await enqueue();
    return { ok: true };
  } catch (error) {
    local = { ...local, running: false };
    if (isRedisEnabled())
      await getRedis()
        .del(`${key()}:lock`, key())
        .catch(() => undefined);
    return { ok: false, message: (error as Error).message || QUEUE_UNAVAILABLE_MESSAGE };
  }
}

/**
 * Tests every channel one after the other. A failure that counts for auto-disable (the
 * reference's rules, or no reply at all: decision 008), or a reply slower than
 * ChannelDisableThreshold seconds, disables an auto-ban channel (when automatic disabling is on);
 * a passing auto-disabled channel (status 3, never a manual 2) is re-enabled when allowed.
 * Root gets one mail listing the channels the run disabled or enabled (decision 029).
 */
export async function runTestAll(): Promise<TestAllProgress> {
  const db = await getDb();
  const channels = await db
    .selectFrom("channels")
    .selectAll()
    .where("type", "not in", [2, 5, 36])
    .orderBy("id")
    .execute();
  const progress: TestAllProgress = {
    running: true,
    total: channels.length,
    done: 0,
    failed: 0,
    disabled: 0,
    enabled: 0,
    finishedAt: 0,
    queuedAt: (await readTestAllProgress()).queuedAt,
    startedAt: now(),
  };
  await writeProgress(progress);
  const threshold = options.float("ChannelDisableThreshold");
  const changes: ChannelStatusChange[] = [];
  try {
    for (const channel of channels) {
      const result = await testChannel(channel);
      progress.done += 1;
      if (!result.success) progress.failed += 1;
      const tooSlow = result.success && threshold > 0 && result.time > threshold;
      if (result.disabled) {
        progress.disabled += 1;
        changes.push({ id: channel.id, name: channel.name, enabled: false, reason: result.message });
      } else if (
        tooSlow &&
        channel.status === CHANNEL_STATUS.enabled &&
        channel.auto_ban &&
        options.bool("AutomaticDisableChannelEnabled")
      ) {
        const reason = `响应时间 ${result.time.toFixed(2)}s 超过阈值 ${threshold}s`;
        await setChannelStatus(channel.id, 3, reason);
        progress.disabled += 1;
        changes.push({ id: channel.id, name: channel.name, enabled: false, reason });
      } else if (
        result.success &&
        !tooSlow &&
        channel.status === CHANNEL_STATUS.autoDisabled &&
        options.bool("AutomaticEnableChannelEnabled")
      ) {
        await setChannelStatus(channel.id, 1, "", { automatic: true });
        progress.enabled += 1;
        changes.push({ id: channel.id, name: channel.name, enabled: true, reason: "" });
      }
      await writeProgress({ ...progress });
    }
  } finally {
    progress.running = false;
    progress.finishedAt = Math.floor(Date.now() / 1000);
    await writeProgress({ ...progress });
    if (isRedisEnabled()) await getRedis().del(`${key()}:lock`);
  }
  await mailRootAboutChannels(changes);
  return progress;
}
