import { accessSync, constants, mkdirSync } from "node:fs";
import { sql } from "kysely";
import { getDb } from "./db.server";
import { redisStatus } from "./redis.server";

/**
 * The dependency checks behind /healthz. Each is bounded: a health check that hangs with the
 * thing it checks tells the operator nothing.
 */
const DB_CHECK_TIMEOUT_MS = 3_000;

export type DbHealth = { ok: boolean; ms?: number; error?: string };
export type RedisHealth = { status: "ok" | "degraded" | "off" };
/** Charges journaled and not yet in the database, and whether the writer is waiting for the database. */
export type JournalBacklog = {
  queued: number;
  oldestMs: number;
  waitingMs?: number;
  lastError?: string;
  longestWaitMs: number;
};
export type JournalHealth = {
  ok: boolean;
  writable: boolean;
  quarantined: number;
  backlog: JournalBacklog;
  error?: string;
};

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  );
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function checkDatabase(ready: Promise<void>): Promise<DbHealth> {
  const started = Date.now();
  try {
    await within(
      (async () => {
        await ready;
        await sql`select 1`.execute(await getDb());
      })(),
      DB_CHECK_TIMEOUT_MS,
      "the database",
    );
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

export function checkRedis(): RedisHealth {
  return { status: redisStatus() };
}

/**
 * The settlement journal's directory must take writes, or charges go unprotected against a
 * crash; nothing may sit in the quarantine; and the writer must not be waiting for the database
 * (its charges are safe in the journal meanwhile, but not yet on anyone's balance).
 */
export function checkJournal(dir: string, quarantined: number, backlog: JournalBacklog): JournalHealth {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return { ok: quarantined === 0 && backlog.waitingMs === undefined, writable: true, quarantined, backlog };
  } catch (error) {
    return { ok: false, writable: false, quarantined, backlog, error: (error as Error).message };
  }
}
