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

const state = globalThis as unknown as { __switchyardNodeLock?: { client?: pg.Client; stopped: boolean } };

/** On PostgreSQL: hold this process's liveness lock until shutdown, re-taking it after a drop. */
export async function holdNodeLock(): Promise<void> {
  if (!env.DATABASE_URL || state.__switchyardNodeLock) return;
  const lock: { client?: pg.Client; stopped: boolean } = { stopped: false };
  state.__switchyardNodeLock = lock;
  const take = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: env.DATABASE_URL, application_name: `switchyard-node ${NODE_ID}` });
    client.on("error", (error) => {
      // While the lock is lost, another node may refund our open reservations; their settle then
      // finds them closed and charges nothing — a free call, never a double charge.
      console.error(`[node] liveness connection lost (${error.message}); re-taking the lock`);
      lock.client = undefined;
      if (!lock.stopped) setTimeout(() => void take().catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query("select pg_advisory_lock($1::bigint)", [lockKey.toString()]);
    lock.client = client;
  };
  await take();
}

export async function releaseNodeLock(): Promise<void> {
  const lock = state.__switchyardNodeLock;
  state.__switchyardNodeLock = undefined;
  if (!lock) return;
  lock.stopped = true;
  await lock.client?.end().catch(() => undefined);
}
