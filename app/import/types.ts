/**
 * `npm run import` — moving a new-api or one-api deployment into Switchyard (decision 042).
 *
 * The contract every import step builds on:
 *
 * - A **SourceDb** reads one source database (SQLite file, MySQL/MariaDB, PostgreSQL) and hands
 *   every row over in one normalised shape ({@link SourceRow}): integers as `number` (or `bigint`
 *   past 2^53), text as `string`, booleans as `boolean` only where the source had a boolean type
 *   (MySQL's tinyint(1) and SQLite's numeric columns come back as numbers: mappers use
 *   `asBool` from `./values`), dates as `Date`, SQL NULL as `null`. A column the source lacks
 *   is simply absent from the row; ask `columns(table)` first.
 * - An **ImportStep** is one table (or a family of tables) moved across: `run(ctx)` reads through
 *   `ctx.source` (or `ctx.logSource` for logs), records every row it found and what became of it in
 *   `ctx.report`, and writes through `ctx.target` only when `ctx.apply` is true. A step must be
 *   idempotent: a second `--apply` adds nothing (insert … on conflict do nothing, reported as
 *   "already present"). Writes go in a transaction per table (history tables: per batch, resumable).
 * - Steps run in the order of `importSteps` (`./steps.ts`); history steps go after the account steps
 *   in the place marked there, since logs and tasks point at users, tokens and channels.
 * - Long tables report their progress through `ctx.progress` (a line on the terminal with a rate).
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { ImportReport } from "./report";

export type SourceDialect = "sqlite" | "mysql" | "postgres";

/** One cell as every reader hands it over (see the contract above). */
export type SourceValue = string | number | bigint | boolean | Date | Uint8Array | null;
export type SourceRow = Record<string, SourceValue>;

export interface SourceDb {
  readonly dialect: SourceDialect;
  /** What the operator passed, with any password masked: for the report. */
  readonly label: string;
  /** Table names present, lower-case. */
  tables(): Promise<string[]>;
  /** Column names of a table, lower-case; empty when the table does not exist. */
  columns(table: string): Promise<string[]>;
  /**
   * Rows in a table; `where` is an optional SQL condition over its columns written portably
   * (plain column names, `?` placeholders bound from `params`), e.g. `created_at >= ?`.
   */
  count(table: string, where?: { sql: string; params: SourceValue[] }): Promise<number>;
  /**
   * Keyset paging: up to `limit` rows with `id > afterId`, ordered by `id`. Only `columns` are
   * read (names the table really has; the reader quotes them, `group` and `key` included).
   * `where` narrows it as in `count`.
   */
  page(
    table: string,
    columns: string[],
    afterId: number,
    limit: number,
    where?: { sql: string; params: SourceValue[] },
  ): Promise<SourceRow[]>;
  /** Every row of a (small) table, ordered by `id` when it has one. */
  all(table: string, columns: string[]): Promise<SourceRow[]>;
  close(): Promise<void>;
}

/** Which project wrote the source, judged by the columns present (see `./fork.ts`). */
export type ForkInfo = {
  fork: "new-api" | "one-api";
  /** A readable version guess for the report, e.g. "v0.3.0.x" or "later (channels.tag, users.setting)". */
  version: string;
  /** The column evidence the guess rests on, printed in the report. */
  evidence: string[];
};

export type ImportOptions = {
  source: string;
  apply: boolean;
  /** Only logs created on or after this day are imported. */
  logsSince?: Date;
  skipLogs: boolean;
  /** A second database holding `logs` (the sources' LOG_SQL_DSN). */
  logSource?: string;
};

export interface ProgressReporter {
  /** Starts a counter for one long table; `total` when known. */
  start(table: string, total?: number): ProgressCounter;
}

export interface ProgressCounter {
  /** Adds `rows` done; the terminal line updates at most a few times a second, with rows/s. */
  add(rows: number): void;
  done(): void;
}

export type ImportContext = {
  source: SourceDb;
  /** The database holding the source's logs: `logSource` when given, else `source`. */
  logSource: SourceDb;
  target: Kysely<DB>;
  apply: boolean;
  fork: ForkInfo;
  options: ImportOptions;
  report: ImportReport;
  progress: ProgressReporter;
};

export type ImportStep = {
  /** The table (or tables) the step moves, as the report names it. */
  name: string;
  run(ctx: ImportContext): Promise<void>;
};
