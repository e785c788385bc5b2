import { sql, type Kysely } from "kysely";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DB } from "../../../db/schema";

/** A cell as the history writers take it: what PostgreSQL's text input reads for the column. */
export type Cell = string | number | boolean | null;

export type HistoryTable = "logs" | "midjourneys" | "tasks" | "top_ups" | "quota_data";

/**
 * Writes one batch of history rows in one transaction and says how many were new. Rows already
 * in the target (same primary key, or top-up trade number) are left alone, so a batch written
 * twice (a run killed between its commit and the next page) adds nothing the second time.
 */
export interface BatchWriter {
  readonly kind: "copy" | "insert";
  write(table: HistoryTable, columns: readonly string[], rows: readonly Cell[][]): Promise<number>;
  close(): Promise<void>;
}

/**
 * PostgreSQL target: the batch is streamed with `COPY … FROM STDIN` into a temporary table shaped
 * like the target, then moved across with one `insert … select … on conflict do nothing`. COPY
 * alone would be quicker still, but it cannot skip rows already present.
 */
export async function copyWriter(databaseUrl: string): Promise<BatchWriter> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const staged = new Set<string>();
  return {
    kind: "copy",
    async write(table, columns, rows) {
      if (rows.length === 0) return 0;
      const stage = `import_stage_${table}`;
      const list = columns.map(quoteIdent).join(", ");
      await client.query("begin");
      try {
        if (!staged.has(table)) {
          await client.query(
            `create temporary table if not exists ${stage} (like ${table} including defaults) on commit delete rows`,
          );
          staged.add(table);
        }
        await pipeline(Readable.from(copyLines(rows)), client.query(copyFrom(`copy ${stage} (${list}) from stdin`)));
        const moved = await client.query(
          `insert into ${table} (${list}) select ${list} from ${stage} on conflict do nothing`,
        );
        await client.query("commit");
        return moved.rowCount ?? 0;
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw error;
      }
    },
    close: () => client.end(),
  };
}

/** Rows per statement on the embedded target: well under PostgreSQL's 65,535 parameters at 17 columns. */
const INSERT_ROWS = 1000;

/**
 * Embedded (PGlite) target: multi-row `insert … on conflict do nothing` in one transaction per
 * batch. PGlite reads COPY only from a whole in-memory blob through its own API, which the
 * gateway's query builder does not reach; at an embedded deployment's sizes inserts suffice.
 */
export function insertWriter(db: Kysely<DB>): BatchWriter {
  return {
    kind: "insert",
    async write(table, columns, rows) {
      if (rows.length === 0) return 0;
      return db.transaction().execute(async (trx) => {
        let written = 0;
        for (let i = 0; i < rows.length; i += INSERT_ROWS) {
          const chunk = rows.slice(i, i + INSERT_ROWS);
          const values = sql.join(chunk.map((row) => sql`(${sql.join(row.map((cell) => sql`${cell}`))})`));
          const result =
            await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${values} on conflict do nothing`.execute(
              trx,
            );
          written += Number(result.numAffectedRows ?? 0);
        }
        return written;
      });
    },
    close: async () => undefined,
  };
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** COPY's text format: tab-separated, `\N` for NULL, backslash escapes for the separators. */
export function copyLine(row: readonly Cell[]): string {
  return `${row.map(copyCell).join("\t")}\n`;
}

function* copyLines(rows: readonly Cell[][]): Generator<string> {
  // Lines are grouped so the stream moves a few hundred KB per chunk, not one row.
  let chunk = "";
  for (const row of rows) {
    chunk += copyLine(row);
    if (chunk.length > 256 * 1024) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

function copyCell(cell: Cell): string {
  if (cell === null) return "\\N";
  if (typeof cell === "boolean") return cell ? "t" : "f";
  if (typeof cell === "number") return String(cell);
  // NUL cannot be stored in PostgreSQL text at all; the mappers drop it, this is the last guard.
  return cell.replace(/[\\\t\n\r\0]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "",
  );
}
