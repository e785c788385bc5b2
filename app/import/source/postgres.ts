import pg from "pg";
import type { SourceDb, SourceValue } from "../types";
import { sqlServerReader } from "./sql-reader";
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
  // The portable `?` placeholders become $1, $2…
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return sqlServerReader({
    dialect: "postgres",
    label,
    quote: (name) => `"${name.replaceAll('"', '""')}"`,
    schema: "current_schema()",
    query: async (sql, params) => (await client.query(numbered(sql), params)).rows as Record<string, SourceValue>[],
    close: () => client.end(),
  });
}
