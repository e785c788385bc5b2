import { sql } from "kysely";
import type { ImportContext, SourceDb, SourceRow, SourceValue } from "../types";
import type { BatchWriter, Cell, HistoryTable } from "./batch-writer";

/** Source rows per keyset page and per written batch (one transaction each). */
export const PAGE_ROWS = 5000;

/** What a mapper says about one source row: its target cells, or nothing (it noted why). */
export type MapRow = (row: SourceRow) => Cell[] | undefined;

export type HistoryMove = {
  /** The source table, also the name the report uses. */
  source: string;
  target: HistoryTable;
  /** Target columns, in the order the mapper fills them; the first is `id`. */
  targetColumns: readonly string[];
  /** Source columns the mapper understands; other columns the source has are named in the report. */
  known: readonly string[];
  /** Which database holds the table (logs may live in a second one). */
  from(ctx: ImportContext): SourceDb;
  where?(ctx: ImportContext): { sql: string; params: SourceValue[] } | undefined;
  /** Builds the mapper once the source's columns are known (rows carry only those). */
  mapper(ctx: ImportContext, have: ReadonlySet<string>): Promise<MapRow> | MapRow;
  /** Runs before each batch is written (logs create the monthly partitions the batch needs). */
  beforeWrite?(ctx: ImportContext, rows: readonly Cell[][]): Promise<void>;
};

/**
 * Moves one history table: keyset pages of the source, each page mapped and written in its own
 * transaction. A run starts after the highest id the target already holds, so a run that was
 * killed continues where its last committed batch ended and a second `--apply` reads nothing
 * new; the rows it skips that way are reported as present. A dry run maps every row it would
 * write (so clamped and changed rows are listed) and writes nothing.
 */
export async function moveHistory(
  ctx: ImportContext,
  move: HistoryMove,
  writer: BatchWriter | undefined,
): Promise<void> {
  const db = move.from(ctx);
  const report = ctx.report;
  report.table(move.source);
  if (!(await db.tables()).includes(move.source)) {
    report.remark(move.source, "not in the source: nothing to import");
    return;
  }
  const have = new Set(await db.columns(move.source));
  const read = [...new Set(["id", ...move.known])].filter((c) => have.has(c));
  const unknown = [...have].filter((c) => !move.known.includes(c) && c !== "id");
  if (unknown.length) report.remark(move.source, `source columns not carried over: ${unknown.join(", ")}`);

  const where = move.where?.(ctx);
  const resumeAfter = await highestTargetId(ctx, move.target);
  const total = await db.count(move.source, where);
  report.found(move.source, total);
  if (resumeAfter !== undefined) {
    const present = await db.count(move.source, {
      sql: `id <= ?${where ? ` and (${where.sql})` : ""}`,
      params: [resumeAfter, ...(where?.params ?? [])],
    });
    if (present > 0)
      report.remark(
        move.source,
        `present ${present}: rows up to id ${resumeAfter} are already in the target (an earlier --apply); continuing after it`,
      );
  }

  const map = await move.mapper(ctx, have);
  const counter = ctx.progress.start(move.source, total);
  let after = resumeAfter ?? Number.MIN_SAFE_INTEGER;
  let next = db.page(move.source, read, after, PAGE_ROWS, where);
  for (;;) {
    const page = await next;
    if (page.length === 0) break;
    after = Number(page[page.length - 1]!.id);
    // The next page is read while this one is written.
    next = db.page(move.source, read, after, PAGE_ROWS, where);
    const rows: Cell[][] = [];
    for (const source of page) {
      const cells = map(source);
      if (cells) rows.push(cells);
    }
    if (writer) {
      await move.beforeWrite?.(ctx, rows);
      const written = await writer.write(move.target, move.targetColumns, rows);
      report.written(move.source, written);
      if (written < rows.length)
        report.remark(
          move.source,
          `${rows.length - written} rows of the batch ending at id ${after} were already in the target`,
        );
    } else {
      report.written(move.source, rows.length);
    }
    counter.add(page.length);
  }
  // A page read ahead past the end is an empty answer; nothing is left waiting on it.
  await next;
  counter.done();
}

/** The resume point: the highest id the target holds in the table, if any. */
async function highestTargetId(ctx: ImportContext, table: HistoryTable): Promise<number | undefined> {
  const result = await sql<{ max: number | string | null }>`select max(id) as max from ${sql.table(table)}`.execute(
    ctx.target,
  );
  const max = result.rows[0]?.max;
  return max === null || max === undefined ? undefined : Number(max);
}
