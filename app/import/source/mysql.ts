import mysql from "mysql2/promise";
import type { SourceDb, SourceValue } from "../types";
import { sqlServerReader } from "./sql-reader";
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
  return sqlServerReader({
    dialect: "mysql",
    label,
    quote: (name) => `\`${name.replaceAll("`", "``")}\``,
    schema: "database()",
    query: async (sql, params) => (await connection.query(sql, params))[0] as Record<string, SourceValue>[],
    close: () => connection.end(),
  });
}
