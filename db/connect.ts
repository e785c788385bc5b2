import { mkdirSync } from "node:fs";
import { Kysely, Migrator, PostgresDialect, sql, type MigrationProvider } from "kysely";
import pg from "pg";
import type { DB } from "./schema";
import { PGliteDialect } from "./pglite-dialect";
import { markConnectFailure } from "./connect-errors";
import { migrations } from "./migrations/index";

/**
 * The embedded database's buffer cache. PostgreSQL's default (128 MB) is sized for a server of
 * its own; inside the gateway's process it helped hold an idle embedded node near 490 MB of
 * memory. The operating system still caches the files, and an embedded node serves one small
 * deployment (decision 037).
 */
const PGLITE_SHARED_BUFFERS = "16MB";

export type Database = {
  db: Kysely<DB>;
  kind: "postgres" | "pglite";
  close: () => Promise<void>;
};

const INT8_OID = 20;

// node-postgres returns int8 as a string and PGlite as a number by default; both are told to give
// JS numbers so the code sees one shape.
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));

/**
 * Statements on the relay's hot path are sent as named prepared statements: PostgreSQL then
 * parses them once per connection and, after a few runs, reuses one plan, which for the billing
 * statements saves about half of their server time. A statement opts in by starting with
 * `/* prepared:<name> *\/` (plain SQL comment, so PGlite runs it unchanged); everything else stays
 * unnamed, so dynamic SQL never piles up in the server's per-connection statement cache.
 */
const PREPARED_TAG = /^\/\* prepared:([a-z0-9_]+) \*\//;

class NamedStatementClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A connection dropped by the server (failover, pg_terminate_backend, a proxy restart) emits
    // 'error' on its client; unheard, Node turns that into a crash of the whole process. The
    // query running on it (if any) fails on its own and is answered as an error by its caller;
    // the pool discards the dead client when it is released and opens a new one on demand.
    this.on("error", (error) => reportDroppedConnection(error));
  }

  // pg.Client.query has many overloads; Kysely calls it as query(text, values).
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name = typeof text === "string" ? PREPARED_TAG.exec(text)?.[1] : undefined;
    const call = super.query as (...a: unknown[]) => never;
    return name ? call.call(this, { name, text, values }) : call.apply(this, args);
  }
}

let lastDropReport = 0;
let droppedSinceReport = 0;

/** Logged once per burst (a failover drops every connection at once), not once per connection. */
function reportDroppedConnection(error: Error): void {
  droppedSinceReport += 1;
  if (Date.now() - lastDropReport < 5_000) return;
  lastDropReport = Date.now();
  console.error(
    `[db] ${droppedSinceReport} database connection(s) lost (${error.message}); new ones are opened as needed`,
  );
  droppedSinceReport = 0;
}

/** Waiting for a connection (the server down, the pool exhausted) is bounded: the request fails instead. */
const CONNECT_TIMEOUT_MS = 10_000;

export async function connectDatabase(options: {
  url?: string;
  pgliteDir: string;
  poolSize?: number;
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 20,
      Client: NamedStatementClient,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle client's error is re-emitted by the pool (which has already dropped the client).
    pool.on("error", (error) => reportDroppedConnection(error));
    // Whatever fails while a connection is being had is about the connection, never the data.
    const connections = {
      connect: () => pool.connect().catch((error: unknown) => Promise.reject(markConnectFailure(error))),
      end: () => pool.end(),
    };
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: connections }) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  const { PGlite, types } = await import("@electric-sql/pglite");
  const dir = options.pgliteDir;
  if (dir !== "memory://") mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir, {
    parsers: { [types.INT8]: (value: string) => Number(value) },
    postgresqlconf: [`shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: "pglite", close: () => db.destroy() };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date. Kysely's Postgres adapter takes a transaction-scoped advisory
 * lock around the run, so when several nodes start at once only one migrates and the others wait.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  // Migrations are independent additions, written on parallel branches: one numbered before a
  // migration a database already ran is applied, not refused (kysely refuses by default).
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Monthly log partitions for this month and the next two; older rows fall into logs_default. */
export async function ensureLogPartitions(db: Kysely<DB>, now = new Date()): Promise<void> {
  for (let i = 0; i < 3; i++)
    await ensureLogPartition(db, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)));
}

/**
 * The monthly log partition holding `day` (`logs_yYYYYmMM`, [first of the month, first of the
 * next) in unix seconds); the import creates those of old months the same way.
 */
export async function ensureLogPartition(db: Kysely<DB>, day: Date): Promise<void> {
  const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const name = `logs_y${start.getUTCFullYear()}m${String(start.getUTCMonth() + 1).padStart(2, "0")}`;
  const from = Math.floor(start.getTime() / 1000);
  const to = Math.floor(end.getTime() / 1000);
  try {
    await sql
      .raw(`create table if not exists ${name} partition of logs for values from (${from}) to (${to})`)
      .execute(db);
  } catch (error) {
    // Rows for that month already sit in the default partition; leave them there.
    console.warn(`[db] could not create partition ${name}: ${(error as Error).message}`);
  }
}
