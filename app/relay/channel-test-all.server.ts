import { setChannelStatus } from "~/domain/channels/channels.server";
import { options } from "~/domain/options/store.server";
import { getDb } from "~/utils/db.server";
import { getRedis, isRedisEnabled } from "~/utils/redis.server";
import { testChannel } from "./channel-test.server";

/**
 * "Test all channels" as a background job, with progress the console can show. Progress lives
 * in Redis when configured (the job may run on a worker), else in this process.
 */
export type TestAllProgress = { running: boolean; total: number; done: number; failed: number; disabled: number; enabled: number; finishedAt: number };

const KEY = "switchyard:channel-test-all";
let local: TestAllProgress = { running: false, total: 0, done: 0, failed: 0, disabled: 0, enabled: 0, finishedAt: 0 };

export async function readTestAllProgress(): Promise<TestAllProgress> {
  if (!isRedisEnabled()) return local;
  const raw = await getRedis().get(KEY);
  return raw ? (JSON.parse(raw) as TestAllProgress) : { ...local };
}

async function writeProgress(progress: TestAllProgress) {
  local = progress;
  if (isRedisEnabled()) await getRedis().set(KEY, JSON.stringify(progress), "EX", 24 * 3600);
}

/** Claims the run (one at a time across nodes); false when one is already going. */
export async function claimTestAll(): Promise<boolean> {
  if (isRedisEnabled()) {
    const claimed = await getRedis().set(`${KEY}:lock`, "1", "EX", 3600, "NX");
    if (!claimed) return false;
  } else if (local.running) return false;
  await writeProgress({ running: true, total: 0, done: 0, failed: 0, disabled: 0, enabled: 0, finishedAt: 0 });
  return true;
}

/**
 * Tests every channel one after the other. A failure that counts for auto-disable (the
 * reference's rules, or no reply at all: decision 008), or a reply slower than
 * ChannelDisableThreshold seconds, disables an auto-ban channel (when automatic disabling is on);
 * a passing auto-disabled channel (status 3, never a manual 2) is re-enabled when allowed.
 */
export async function runTestAll(): Promise<TestAllProgress> {
  const db = await getDb();
  const channels = await db.selectFrom("channels").selectAll().where("type", "not in", [2, 5, 36]).orderBy("id").execute();
  const progress: TestAllProgress = { running: true, total: channels.length, done: 0, failed: 0, disabled: 0, enabled: 0, finishedAt: 0 };
  await writeProgress(progress);
  const threshold = options.float("ChannelDisableThreshold");
  try {
    for (const channel of channels) {
      const result = await testChannel(channel);
      progress.done += 1;
      if (!result.success) progress.failed += 1;
      const tooSlow = result.success && threshold > 0 && result.time > threshold;
      if (result.disabled) progress.disabled += 1;
      else if (tooSlow && channel.status === 1 && channel.auto_ban && options.bool("AutomaticDisableChannelEnabled")) {
        await setChannelStatus(channel.id, 3, `响应时间 ${result.time.toFixed(2)}s 超过阈值 ${threshold}s`);
        progress.disabled += 1;
      } else if (result.success && !tooSlow && channel.status === 3 && options.bool("AutomaticEnableChannelEnabled")) {
        await setChannelStatus(channel.id, 1);
        progress.enabled += 1;
      }
      await writeProgress({ ...progress });
    }
  } finally {
    progress.running = false;
    progress.finishedAt = Math.floor(Date.now() / 1000);
    await writeProgress({ ...progress });
    if (isRedisEnabled()) await getRedis().del(`${KEY}:lock`);
  }
  return progress;
}
