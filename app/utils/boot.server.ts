import { loadOptions } from "~/domain/options/store.server";
import { ensureRootUser } from "~/domain/users/users.server";
import { env } from "./env.server";
import { openDatabase } from "./db.server";
import { isRedisEnabled } from "./redis.server";
import { startInProcessJobs } from "../../jobs/in-process";
import { refundOrphanedReservations } from "~/relay/billing/quota.server";
import { holdNodeLock } from "~/relay/billing/node-liveness.server";

const state = globalThis as unknown as { __switchyardBoot?: Promise<void> };

/**
 * Everything the app needs before its first request: database open and migrated, options
 * loaded, root account present. Started at import of the server build (not on the first
 * request) and awaited by /healthz and by every loader that touches data.
 */
export function bootApp(): Promise<void> {
  state.__switchyardBoot ??= (async () => {
    await openDatabase();
    await loadOptions();
    // Quota held by requests that a crash cut short goes back to its payers: every reservation
    // whose process is gone (node-liveness), never a live process's in-flight ones.
    await holdNodeLock();
    const refunded = await refundOrphanedReservations();
    if (refunded) console.log(`[boot] refunded ${refunded} quota reservations left open by an earlier stop`);
    const root = await ensureRootUser(env.ROOT_PASSWORD);
    if (root.created) {
      const shown = env.ROOT_PASSWORD ? "(from ROOT_PASSWORD)" : root.password;
      console.log(`[boot] created the root account: username root, password ${shown} — change it after signing in`);
    }
    // With Redis, `npm run worker` processes own the recurring jobs; embedded, this process does.
    if (!isRedisEnabled()) startInProcessJobs();
  })();
  return state.__switchyardBoot;
}
