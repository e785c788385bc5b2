import mysql from "mysql2/promise";
import type { SourceDb, SourceRow, SourceValue } from "../types";
import { integerFromText } from "../values";

/**
 * A new-api / one-api MySQL or MariaDB database (`mysql://user:pass@host:port/db`). 64-bit
 * integers are read as text and handed over as number (bigint past 2^53); decimals as numbers;
 * text columns as strings whatever their collation (decision 042).
 */
export async function openMysqlSource(url: string, label: string): Promise<SourceDb> {
  const connection = await mysql.createConnection({
    uri: url,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: false,
    typeCast(field, next) {
      if (field.type === "LONGLONG") {
        const text = field.string();
        return text === null ? null : integerFromText(text);
      }
      if (field.type === "NEWDECIMAL" || field.type === "DECIMAL") {
        const text = field.string();
        return text === null ? null : Number(text);
      }
      // TEXT columns under a binary collation would otherwise come back as Buffers.
      if (field.type === "BLOB" || field.type === "VAR_STRING" || field.type === "STRING") return field.string();
      return next();
    },
  });
  const quote = (name: string) => `\`${name.replaceAll("`", "``")}\``;
  const rows = async (sql: string, params: SourceValue[] = []) => {
    const [result] = await connection.query(sql, params);
    return (result as Record<string, SourceValue>[]).map((row) => {
      const out: SourceRow = {};
      for (const [k, v] of Object.entries(row)) out[k.toLowerCase()] = v;
      return out;
    });
  };
  const select = (columns: string[]) => columns.map(quote).join(", ");

  const reader: SourceDb = {
    dialect: "mysql",
    label,
    async tables() {
      return (await rows("select table_name as name from information_schema.tables where table_schema = database()")).map((r) => String(r.name).toLowerCase());
    },
    async columns(table) {
      const found = await rows("select column_name as name from information_schema.columns where table_schema = database() and table_name = ? order by ordinal_position", [table]);
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
      await connection.end();
    },
  };
  return reader;
}
