import { existsSync } from "node:fs";
import sqlite from "node-sqlite3-wasm";
import type { SourceDb, SourceRow, SourceValue } from "../types";

/**
 * A new-api / one-api SQLite file (their default `one-api.db`), opened read-only. The driver is
 * SQLite compiled to WebAssembly reading the file through Node's fs page by page, so a file with
 * millions of log rows is never loaded whole, and it installs from the npm registry alone
 * (decision 042).
 */
export function openSqliteSource(path: string): SourceDb {
  if (!existsSync(path)) throw new Error(`no such SQLite file: ${path}`);
  const db = new sqlite.Database(path, { readOnly: true, fileMustExist: true });
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const bind = (params: SourceValue[]) =>
    params.map((p) => (p instanceof Date ? Math.floor(p.getTime() / 1000) : p)) as never;
  const rows = (sql: string, params: SourceValue[] = []) => db.all(sql, bind(params)) as SourceRow[];
  const lowerKeys = (row: SourceRow): SourceRow => {
    const out: SourceRow = {};
    for (const [k, v] of Object.entries(row)) out[k.toLowerCase()] = v;
    return out;
  };
  const select = (columns: string[]) => columns.map(quote).join(", ");

  const reader: SourceDb = {
    dialect: "sqlite",
    label: path,
    async tables() {
      return rows("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").map((r) =>
        String(r.name).toLowerCase(),
      );
    },
    async columns(table) {
      return rows(`pragma table_info(${quote(table)})`).map((r) => String(r.name).toLowerCase());
    },
    async count(table, where) {
      const row = rows(
        `select count(*) as n from ${quote(table)}${where ? ` where ${where.sql}` : ""}`,
        where?.params,
      )[0];
      return Number(row?.n ?? 0);
    },
    async page(table, columns, afterId, limit, where) {
      const extra = where ? ` and (${where.sql})` : "";
      return rows(`select ${select(columns)} from ${quote(table)} where id > ?${extra} order by id limit ?`, [
        afterId,
        ...(where?.params ?? []),
        limit,
      ]).map(lowerKeys);
    },
    async all(table, columns) {
      const hasId = (await reader.columns(table)).includes("id");
      return rows(`select ${select(columns)} from ${quote(table)}${hasId ? " order by id" : ""}`).map(lowerKeys);
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
  return reader;
}
