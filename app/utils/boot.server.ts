import { loadOptions } from "~/domain/options/store.server";
import { ensureRootUser } from "~/domain/users/users.server";
import { env } from "./env.server";
import { openDatabase } from "./db.server";
import { isRedisEnabled } from "./redis.server";
import { startInProcessJobs } from "../../jobs/in-process";
import { recoverStoppedNodes } from "~/relay/billing/crash-recovery.server";
import { holdNodeLock } from "~/relay/billing/node-liveness.server";

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
    // With Redis, `npm run worker` processes own the recurring jobs; embedded, this process does.
    if (!isRedisEnabled()) startInProcessJobs();
    state.__switchyardBooted = true;
  })();
  return state.__switchyardBoot;
}
