import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import { env } from "~/utils/env.server";

/**
 * Which process holds an open quota reservation, and is it still alive?
 *
 * Every process gets an identity of its own for its lifetime (label, pid and a random 63-bit
 * key), stamped on each reservation it takes. On PostgreSQL the process holds a session-level
 * advisory lock on its key over a dedicated connection: the server drops that lock the moment
 * the process dies (even on SIGKILL, when the socket closes), so anyone can tell a dead node's
 * reservations from a live one's with `pg_try_advisory_xact_lock`, exactly and at once, with no
 * heartbeat to tune. Embedded PGlite is one process, so every other node is dead by definition.
 *
 * Earlier the identity was host + data dir, which a worker or a second web process on the same
 * host shares: its boot then refunded the live process's in-flight reservations, letting calls
 * through for free and past the quota (found by the k-calls race test in CI).
 */
const label = env.NODE_ID ?? hostname();
const lockKey = randomBytes(8).readBigInt64BE() & 0x7fffffffffffffffn;

export const NODE_ID = `${label}:${process.pid}:${lockKey}`;

/** The advisory-lock key encoded in a node id, or undefined for ids from before this scheme. */
export function lockKeyOf(nodeId: string): bigint | undefined {
  const last = nodeId.slice(nodeId.lastIndexOf(":") + 1);
  return /^\d{1,19}$/.test(last) ? BigInt(last) : undefined;
}

type NodeLock = { client?: pg.Client; stopped: boolean; retaking: boolean };
const state = globalThis as unknown as { __switchyardNodeLock?: NodeLock };

/**
 * How long a node's lock must stay free before another process believes the node stopped
 * (crash-recovery probes twice, this far apart). A live node whose lock connection is dropped
 * (failover, pg_terminate_backend) re-takes the lock within milliseconds; without the second
 * probe a recovery run landing in that gap deleted the live node's journal row and leases, and
 * every charge the node wrote afterwards was silently skipped (free calls, found by the
 * pg_terminate_backend load test).
 */
export const LIVENESS_CONFIRM_MS = 2_000;

/** On PostgreSQL: hold this process's liveness lock until shutdown, re-taking it after a drop. */
export async function holdNodeLock(): Promise<void> {
  if (!env.DATABASE_URL || state.__switchyardNodeLock) return;
  const lock: NodeLock = { stopped: false, retaking: false };
  state.__switchyardNodeLock = lock;
  await takeNodeLock(lock);
}

async function takeNodeLock(lock: NodeLock): Promise<void> {
  const client = new pg.Client({
    connectionString: env.DATABASE_URL,
    application_name: `switchyard-node ${NODE_ID}`,
    connectionTimeoutMillis: 5_000,
  });
  // A dropped connection emits 'error' (and a second one as the socket closes): one re-take.
  client.on("error", (error) => {
    if (lock.client !== client) return;
    lock.client = undefined;
    console.error(`[node] liveness connection lost (${error.message}); re-taking the lock`);
    retakeNodeLock(lock);
  });
  try {
    await client.connect();
    await client.query("select pg_advisory_lock($1::bigint)", [lockKey.toString()]);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  if (lock.stopped) {
    await client.end().catch(() => undefined);
    return;
  }
  lock.client = client;
}

/** At once, then with backoff while the database is unreachable; never two attempts at a time. */
function retakeNodeLock(lock: NodeLock, attempt = 0): void {
  if (lock.stopped || (lock.retaking && attempt === 0)) return;
  lock.retaking = true;
  const delay = attempt === 0 ? 0 : Math.min(5_000, 200 * 2 ** attempt);
  setTimeout(() => {
    if (lock.stopped) return;
    takeNodeLock(lock).then(
      () => {
        lock.retaking = false;
        if (!lock.stopped)
          console.log(`[node] liveness lock re-taken${attempt ? ` after ${attempt + 1} attempts` : ""}`);
      },
      (error: unknown) => {
        if (attempt % 10 === 0)
          console.error(`[node] re-taking the liveness lock failed (${(error as Error).message}); retrying`);
        retakeNodeLock(lock, attempt + 1);
      },
    );
  }, delay).unref();
}

export async function releaseNodeLock(): Promise<void> {
  const lock = state.__switchyardNodeLock;
  state.__switchyardNodeLock = undefined;
  if (!lock) return;
  lock.stopped = true;
  await lock.client?.end().catch(() => undefined);
}
