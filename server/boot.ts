import type { EntryExports } from "./entry";

/** What the boot sequence takes from the server build: the app's own steps, run in this order here. */
export type BootSteps = EntryExports["bootSteps"];

/**
 * Everything the app needs before its first request: database open and migrated, options
 * loaded, root account present, crash leftovers put right, background jobs started. This is
 * the composition root's job: it is the one place that wires web, relay and jobs together.
 * The steps run inside the server build (one module graph: one pool, one cache, one options
 * store); the build's boot gate runs the sequence once and lets every request wait for it.
 */
export function bootApp(entry: Pick<EntryExports, "bootSteps" | "startBoot">): Promise<void> {
  const steps = entry.bootSteps;
  return entry.startBoot(async () => {
    // Opened now, without waiting: the first rate-limit check and the first publish find them up.
    steps.connectRedis();
    await steps.startTracing();
    await steps.openDatabase();
    await steps.loadOptions();
    // What a crash left behind is put right: settlements journaled on this host but never
    // written are written, and the quota leases of stopped processes go back to their payers
    // (never a live process's: node-liveness).
    await steps.holdNodeLock();
    const recovered = await steps.recoverStoppedNodes();
    if (recovered.replayed || recovered.returned || recovered.refunded) {
      console.log(
        `[boot] recovered from an earlier stop: ${recovered.replayed} journaled settlements written, ${recovered.returned} quota leases returned, ${recovered.refunded} old reservations refunded`,
      );
    }
    const rootPassword = steps.env.ROOT_PASSWORD;
    const root = await steps.ensureRootUser(rootPassword);
    if (root.created) {
      const shown = rootPassword ? "(from ROOT_PASSWORD)" : root.password;
      console.log(`[boot] created the root account: username root, password ${shown} — change it after signing in`);
    }
    // Embedded, this process runs the recurring jobs on timers. With Redis, BullMQ workers run
    // them — in this process too unless WORKERS=off, so one `npm start` is a complete
    // deployment (with only `npm run worker` processes expected and none running, a crashed
    // node's quota stayed held and "test all channels" never started). Neither waits for
    // Redis: a node starts, serves and reports itself degraded while Redis is down.
    if (!steps.isRedisEnabled()) {
      steps.startInProcessJobs();
      console.log(
        "[boot] no REDIS_URL: background jobs run in this process (one instance; set DATABASE_URL and REDIS_URL to run several)",
      );
    } else if (steps.env.WORKERS === "on") await steps.startBullWorker();
    else console.log("[boot] WORKERS=off: background jobs run only in `npm run worker` processes");
  });
}
