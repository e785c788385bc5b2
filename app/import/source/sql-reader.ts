import type { SourceDb, SourceRow, SourceValue } from "../types";

/** What a server database (MySQL/MariaDB, PostgreSQL) gives the shared reader: its dialect's few differences. */
export interface SqlServer {
  dialect: "mysql" | "postgres";
  label: string;
  /** Quotes an identifier in the dialect's way. */
  quote: (name: string) => string;
  /** The SQL expression naming the source's schema in information_schema. */
  schema: string;
  /** Runs one statement with `?` placeholders and returns its rows. */
  query: (sql: string, params: SourceValue[]) => Promise<Record<string, SourceValue>[]>;
  close: () => Promise<void>;
}

/**
 * The reader both server databases share: the same catalogue queries and keyset pages, with
 * column names lower-cased (MySQL keeps a column's declared case) so the mappers see one shape.
 */
export function sqlServerReader(server: SqlServer): SourceDb {
  const { quote } = server;
  const rows = async (sql: string, params: SourceValue[] = []) =>
    (await server.query(sql, params)).map((row) => {
      const out: SourceRow = {};
      for (const [k, v] of Object.entries(row)) out[k.toLowerCase()] = v;
      return out;
    });
  const select = (columns: string[]) => columns.map(quote).join(", ");

  const reader: SourceDb = {
    dialect: server.dialect,
    label: server.label,
    async tables() {
      return (
        await rows(`select table_name as name from information_schema.tables where table_schema = ${server.schema}`)
      ).map((r) => String(r.name).toLowerCase());
    },
    async columns(table) {
      const found = await rows(
        `select column_name as name from information_schema.columns where table_schema = ${server.schema} and table_name = ? order by ordinal_position`,
        [table],
      );
      return found.map((r) => String(r.name).toLowerCase());
    },
    async count(table, where) {
      const [row] = await rows(
        `select count(*) as n from ${quote(table)}${where ? ` where ${where.sql}` : ""}`,
        where?.params,
      );
      return Number(row?.n ?? 0);
    },
    async page(table, columns, afterId, limit, where) {
      const extra = where ? ` and (${where.sql})` : "";
      return rows(`select ${select(columns)} from ${quote(table)} where id > ?${extra} order by id limit ?`, [
        afterId,
        ...(where?.params ?? []),
        limit,
      ]);
    },
    async all(table, columns) {
      const hasId = (await reader.columns(table)).includes("id");
      return rows(`select ${select(columns)} from ${quote(table)}${hasId ? " order by id" : ""}`);
    },
    close: server.close,
  };
  return reader;
}
