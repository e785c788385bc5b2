import { loadOptions } from "~/domain/options/store.server";
import { ensureRootUser } from "~/domain/users/users.server";
import { env } from "~/utils/env.server";
import { openDatabase } from "~/utils/db.server";
import { connectRedis, isRedisEnabled } from "~/utils/redis.server";
import { startInProcessJobs } from "../../jobs/in-process";
import { recoverStoppedNodes } from "~/relay/billing/crash-recovery.server";
import { holdNodeLock } from "~/relay/billing/node-liveness.server";
import { startTracing } from "~/utils/tracing.server";

const state = globalThis as unknown as { __switchyardBoot?: Promise<void>; __switchyardBooted?: boolean };

/** True once bootApp() has finished: the relay then skips even a resolved await (a turn of the microtask queue). */
export function isBooted(): boolean {
  return state.__switchyardBooted === true;
}

/**
 * Everything the app needs before its first request: database open and migrated, options
 * loaded, root account present. Started at import of the server build (not on the first
 * request) and awaited by /healthz and by every loader that touches data.
 */
export function bootApp(): Promise<void> {
  state.__switchyardBoot ??= (async () => {
    // Opened now, without waiting: the first rate-limit check and the first publish find them up.
    connectRedis();
    await startTracing();
    await openDatabase();
    await loadOptions();
    // What a crash left behind is put right: settlements journaled on this host but never
    // written are written, and the quota leases of stopped processes go back to their payers
    // (never a live process's: node-liveness).
    await holdNodeLock();
    const recovered = await recoverStoppedNodes();
    if (recovered.replayed || recovered.returned || recovered.refunded) {
      console.log(`[boot] recovered from an earlier stop: ${recovered.replayed} journaled settlements written, ${recovered.returned} quota leases returned, ${recovered.refunded} old reservations refunded`);
    }
    const root = await ensureRootUser(env.ROOT_PASSWORD);
    if (root.created) {
      const shown = env.ROOT_PASSWORD ? "(from ROOT_PASSWORD)" : root.password;
      console.log(`[boot] created the root account: username root, password ${shown} — change it after signing in`);
    }
    // Embedded, this process runs the recurring jobs on timers. With Redis, BullMQ workers run
    // them — in this process too unless WORKERS=off, so one `npm start` is a complete
    // deployment (with only `npm run worker` processes expected and none running, a crashed
    // node's quota stayed held and "test all channels" never started). Neither waits for
    // Redis: a node starts, serves and reports itself degraded while Redis is down.
    if (!isRedisEnabled()) {
      startInProcessJobs();
      console.log("[boot] no REDIS_URL: background jobs run in this process (one instance; set DATABASE_URL and REDIS_URL to run several)");
    } else if (env.WORKERS === "on") await (await import("../../jobs/bullmq")).startBullWorker();
    else console.log("[boot] WORKERS=off: background jobs run only in `npm run worker` processes");
    state.__switchyardBooted = true;
  })();
  // A failed boot (the database unreachable) is tried again by the next caller, not cached.
  state.__switchyardBoot.catch(() => {
    if (!state.__switchyardBooted) state.__switchyardBoot = undefined;
  });
  return state.__switchyardBoot;
}
