import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { connectDatabase, ensureLogPartitions, migrateToLatest, type Database } from "../../db/connect";
import type { DB } from "../../db/schema";
import { env } from "./env.server";

// Kept on globalThis so the dev server's module reloads reuse one connection.
const state = globalThis as unknown as { __switchyardDb?: Promise<Database> };

async function openAndMigrate(): Promise<Database> {
  const started = Date.now();
  const database = await connectDatabase({ url: env.DATABASE_URL, pgliteDir: pgliteDir() });
  const applied = await migrateToLatest(database.db);
  await ensureLogPartitions(database.db);
  const where = database.kind === "pglite" ? `PGlite at ${pgliteDir()}` : "PostgreSQL";
  console.log(
    `[db] ${where} ready in ${Date.now() - started} ms${applied.length ? `, applied ${applied.join(", ")}` : ""}`,
  );
  return database;
}

function pgliteDir(): string {
  return env.PGLITE_DIR ?? join(env.DATA_DIR, "pglite");
}

/** An embedded database that does not exist yet: its first open runs initdb and every migration. */
export function isFreshEmbeddedDatabase(): boolean {
  return !env.DATABASE_URL && pgliteDir() !== "memory://" && !existsSync(join(pgliteDir(), "PG_VERSION"));
}

/** Creates and migrates the database, then closes it (for a process that only prepares it). */
export async function prepareDatabase(): Promise<void> {
  await openDatabase();
  await closeDatabase();
}

export function openDatabase(): Promise<Database> {
  if (!state.__switchyardDb) {
    const opening = openAndMigrate();
    state.__switchyardDb = opening;
    // Unreachable at start: the next caller tries again instead of failing for good.
    opening.catch(() => {
      if (state.__switchyardDb === opening) state.__switchyardDb = undefined;
    });
  }
  return state.__switchyardDb;
}

/** The query builder, once the database is open and migrated. */
export async function getDb(): Promise<Kysely<DB>> {
  return (await openDatabase()).db;
}

export async function closeDatabase(): Promise<void> {
  const pending = state.__switchyardDb;
  state.__switchyardDb = undefined;
  if (pending) await (await pending).close();
}
