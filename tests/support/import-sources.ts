import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import mysql from "mysql2/promise";
import sqlite from "node-sqlite3-wasm";
import pg from "pg";
import packageJson from "../../package.json" with { type: "json" };

/**
 * Source databases for the import tests: a new-api or one-api database built from the DDL in
 * tests/fixtures/import (as their GORM AutoMigrate creates it), as a SQLite file or on the
 * MariaDB server at MARIADB_URL, and a way to run `npm run import`'s bundle against a target.
 */
export type Variant = "new-api-v0.3.0.2" | "new-api-later" | "one-api";
export type Source = { source: string; exec(sql: string, params?: unknown[]): Promise<void>; close(): Promise<void> };

const MARIADB_URL = process.env.MARIADB_URL ?? "mysql://root@127.0.0.1:3306";

function ddlFiles(variant: Variant, dialect: "sqlite" | "mysql" | "postgres"): string[] {
  const files = variant === "new-api-later" ? ["new-api-v0.3.0.2", "new-api-later"] : [variant];
  return files.map((f) => readFileSync(new URL(`../fixtures/import/${f}.${dialect}.sql`, import.meta.url), "utf8"));
}

export async function sqliteSource(variant: Variant): Promise<Source & { drop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "import-src-"));
  const path = join(dir, "one-api.db");
  const db = new sqlite.Database(path);
  for (const ddl of ddlFiles(variant, "sqlite")) db.exec(ddl);
  return {
    source: path,
    async exec(sql, params = []) {
      db.run(sql, params as never);
    },
    async close() {
      if (db.isOpen) db.close();
    },
    async drop() {
      if (db.isOpen) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function mariaDbSource(variant: Variant): Promise<Source & { drop(): Promise<void> }> {
  const name = `import_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = await mysql.createConnection({ uri: MARIADB_URL, multipleStatements: true });
  await admin.query(`create database ${name} character set utf8mb4`);
  await admin.query(`use ${name}`);
  for (const ddl of ddlFiles(variant, "mysql")) await admin.query(ddl);
  const url = new URL(MARIADB_URL);
  url.pathname = `/${name}`;
  return {
    source: url.toString(),
    async exec(sql, params = []) {
      await admin.query(sql, params);
    },
    async close() {},
    async drop() {
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    },
  };
}

/**
 * new-api v0.3.0.2 on a scratch PostgreSQL database (on the server DATABASE_URL points at). The
 * seed's MySQL-style SQL is spoken here too: backticks become double quotes, `?` becomes $n, and
 * PostgreSQL reads the text '1' / '0' sent for a boolean column as true / false.
 */
export async function postgresSource(adminUrl: string): Promise<Source & { drop(): Promise<void> }> {
  const name = `import_src_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  for (const ddl of ddlFiles("new-api-v0.3.0.2", "postgres")) await client.query(ddl);
  return {
    source: url.toString(),
    async exec(sql, params = []) {
      let n = 0;
      await client.query(
        sql.replace(/`/g, '"').replace(/\?/g, () => `$${++n}`),
        params.map((p) => (p === null ? null : String(p))),
      );
    },
    async close() {},
    async drop() {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A hash as Go's bcrypt writes it (`$2a$10$…`), which both forks store. */
export function goBcrypt(password: string): string {
  // bcryptjs writes `$2b$`; Go writes `$2a$` for the same algorithm and the same hash.
  return bcrypt.hashSync(password, bcrypt.genSaltSync(10)).replace(/^\$2b\$/, "$2a$");
}

const ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
export function randomKey(length = 48): string {
  let key = "";
  for (let i = 0; i < length; i++) key += ALNUM[Math.floor(Math.random() * ALNUM.length)];
  return key;
}

const nodeFlags = packageJson.config.node_flags.split(" ").filter(Boolean);

/** Runs the built `npm run import` bundle against a target; resolves with its exit code and output. */
export function runImportCli(
  args: string[],
  target: { dataDir: string; databaseUrl?: string; cryptoSecret: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, "build/entry/server/import.mjs", ...args], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATA_DIR: target.dataDir,
        DATABASE_URL: target.databaseUrl ?? "",
        CRYPTO_SECRET: target.cryptoSecret,
        REDIS_URL: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
