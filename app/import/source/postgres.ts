import pg from "pg";
import type { SourceDb, SourceRow, SourceValue } from "../types";
import { integerFromText } from "../values";

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * A new-api / one-api PostgreSQL database. Its own client with its own type parsers (the
 * gateway's pool turns int8 into numbers globally; here a value past 2^53 stays exact).
 */
export async function openPostgresSource(url: string, label: string): Promise<SourceDb> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") => {
        if (oid === INT8_OID) return (text: string) => integerFromText(text);
        if (oid === NUMERIC_OID) return (text: string) => Number(text);
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  // The portable `?` placeholders become $1, $2…
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const rows = async (sql: string, params: SourceValue[] = []) => {
    const result = await client.query(numbered(sql), params);
    return result.rows.map((row: Record<string, SourceValue>) => {
      const out: SourceRow = {};
      for (const [k, v] of Object.entries(row)) out[k.toLowerCase()] = v;
      return out;
    });
  };
  const select = (columns: string[]) => columns.map(quote).join(", ");

  const reader: SourceDb = {
    dialect: "postgres",
    label,
    async tables() {
      return (await rows("select table_name as name from information_schema.tables where table_schema = current_schema()")).map((r) => String(r.name).toLowerCase());
    },
    async columns(table) {
      const found = await rows("select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ? order by ordinal_position", [table]);
      return found.map((r) => String(r.name).toLowerCase());
    },
    async count(table, where) {
      const [row] = await rows(`select count(*) as n from ${quote(table)}${where ? ` where ${where.sql}` : ""}`, where?.params);
      return Number(row?.n ?? 0);
    },
    async page(table, columns, afterId, limit, where) {
      const extra = where ? ` and (${where.sql})` : "";
      return rows(`select ${select(columns)} from ${quote(table)} where id > ?${extra} order by id limit ?`, [afterId, ...(where?.params ?? []), limit]);
    },
    async all(table, columns) {
      const hasId = (await reader.columns(table)).includes("id");
      return rows(`select ${select(columns)} from ${quote(table)}${hasId ? " order by id" : ""}`);
    },
    async close() {
      await client.end();
    },
  };
  return reader;
}
