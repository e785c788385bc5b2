import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/schema";
import type { ImportContext, SourceRow } from "./types";

/** Source rows read per round trip: small enough for any source, large enough to be quick. */
const PAGE_ROWS = 1000;

/** A mapped row, or why it does not come across (the mapper has already noted it). */
export type Mapped<R> = { row: R & { id: number } } | { skip: true };

export type TableMove<R> = {
  /** The source table, and the name the report uses. */
  source: string;
  target: keyof DB;
  /** Columns to read when the source has them (the mapper sees only those). */
  columns: string[];
  map(row: SourceRow, ctx: ImportContext, have: Set<string>): Promise<Mapped<R>> | Mapped<R>;
  /** Runs in the table's transaction after its rows are written (e.g. rebuilding abilities). */
  afterWrite?(trx: Transaction<DB>, written: R[]): Promise<void>;
};

/**
 * Reads a source table page by page, maps every row and writes them all in one transaction:
 * `on conflict do nothing`, so rows an earlier `--apply` wrote are reported present and a
 * second run adds nothing. A dry run asks the target which ids it already has instead.
 */
export async function moveTable<R extends Record<string, unknown>>(
  ctx: ImportContext,
  spec: TableMove<R>,
): Promise<void> {
  const report = ctx.report;
  report.table(spec.source);
  if (!(await ctx.source.tables()).includes(spec.source)) {
    report.remark(spec.source, "not in the source: nothing to import");
    return;
  }
  const have = new Set(await ctx.source.columns(spec.source));
  const columns = spec.columns.filter((c) => have.has(c));
  const total = await ctx.source.count(spec.source);
  const counter = ctx.progress.start(spec.source, total);
  const rows: R[] = [];
  for (let after = Number.MIN_SAFE_INTEGER; ;) {
    const page = await ctx.source.page(spec.source, columns, after, PAGE_ROWS);
    if (page.length === 0) break;
    for (const source of page) {
      report.found(spec.source);
      const mapped = await spec.map(source, ctx, have);
      if ("row" in mapped) rows.push(mapped.row);
    }
    after = Number(page[page.length - 1]!.id);
    counter.add(page.length);
  }
  counter.done();
  if (ctx.apply) await writeRows(ctx, spec, rows);
  else await countWouldWrite(ctx, spec, rows);
}

async function writeRows<R extends Record<string, unknown>>(
  ctx: ImportContext,
  spec: TableMove<R>,
  rows: R[],
): Promise<void> {
  await ctx.target.transaction().execute(async (trx) => {
    const written: R[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      const inserted = await trx
        .insertInto(spec.target)
        .values(batch as any)
        .onConflict((oc) => oc.doNothing())
        .returning("id" as any)
        .execute();
      const ids = new Set(inserted.map((r: any) => Number(r.id)));
      for (const row of batch) {
        if (ids.has(row.id as number)) written.push(row);
        else
          ctx.report.note(
            spec.source,
            row.id as number,
            "present",
            "already in the target (an earlier --apply wrote it)",
          );
      }
    }
    ctx.report.written(spec.source, written.length);
    if (spec.afterWrite && written.length) await spec.afterWrite(trx, written);
  });
}

async function countWouldWrite<R extends Record<string, unknown>>(
  ctx: ImportContext,
  spec: TableMove<R>,
  rows: R[],
): Promise<void> {
  const present = new Set<number>();
  for (let i = 0; i < rows.length; i += 1000) {
    const ids = rows.slice(i, i + 1000).map((r) => r.id as number);
    const found = await (ctx.target as Kysely<any>)
      .selectFrom(spec.target)
      .select("id")
      .where("id", "in", ids)
      .execute();
    for (const r of found) present.add(Number(r.id));
  }
  let would = 0;
  for (const row of rows) {
    if (present.has(row.id as number))
      ctx.report.note(spec.source, row.id as number, "present", "already in the target (an earlier --apply wrote it)");
    else would += 1;
  }
  ctx.report.written(spec.source, would);
}
