import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { connectDatabase, ensureLogPartitions, migrateToLatest } from "../../db/connect";
import type { DB } from "../../db/schema";
import { PASSWORD_HASH } from "./import-history-source";
import { createScratchDatabase, startServer, type StartedServer } from "./server";

/**
 * A fresh Switchyard database to import into (PGlite directory, or a scratch PostgreSQL database
 * when the suite runs on PostgreSQL), the built `npm run import` run against it as a child
 * process, and the built gateway started on it afterwards.
 */
export type ImportTarget = {
  kind: "postgres" | "pglite";
  dataDir: string;
  databaseUrl?: string;
  /** Opens the target directly (PGlite allows one process at a time: not while a child runs). */
  withDb<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  runImport(args: string[]): Promise<{ code: number; stdout: string; stderr: string; rssKb?: number }>;
  startGateway(): Promise<StartedServer>;
  drop(): Promise<void>;
};

export async function createImportTarget(kind: "postgres" | "pglite"): Promise<ImportTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), "switchyard-import-"));
  const scratch = kind === "postgres" ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? "",
    REDIS_URL: "",
  };
  delete env.PGLITE_DIR;
  const target: ImportTarget = {
    kind,
    dataDir,
    databaseUrl: scratch?.url,
    async withDb(fn) {
      const database = await connectDatabase({ url: scratch?.url, pgliteDir: join(dataDir, "pglite"), poolSize: 2 });
      try {
        await migrateToLatest(database.db);
        await ensureLogPartitions(database.db);
        return await fn(database.db);
      } finally {
        await database.close();
      }
    },
    runImport(args) {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ["build/entry/server/import.mjs", ...args], {
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.once("error", reject);
        child.once("exit", (code) => resolve({ code: code ?? -1, stdout, stderr }));
      });
    },
    startGateway: () => startServer({ kind, storage: { dataDir, databaseUrl: scratch?.url } }),
    async drop() {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return target;
}

/**
 * The accounts the account steps (users, tokens) would have brought over, written directly: the
 * history tests are about the history tables, and top-ups point at their users. An import_runs
 * row marks the target as one an import is filling.
 */
export async function seedImportedAccounts(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto("users")
    .values([
      { id: 1, username: "root", password_hash: PASSWORD_HASH, role: 100, quota: 0 },
      { id: 2, username: "alice", password_hash: PASSWORD_HASH, role: 1, quota: 1000 },
    ])
    .execute();
  await db
    .insertInto("import_runs")
    .values({ source: "test accounts", fork: "new-api", finished_at: new Date() })
    .execute();
}

/** A signed-in admin on a started gateway, with the console's headers. */
export async function signIn(baseUrl: string, username: string, password: string) {
  const res = await fetch(`${baseUrl}/api/user/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  const json = (await res.json()) as { success: boolean; message?: string; data: { id: number } };
  if (!json.success) throw new Error(`login failed: ${json.message}`);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const headers = { Cookie: cookie, "New-Api-User": String(json.data.id) };
  return {
    api: async (path: string) => (await (await fetch(`${baseUrl}${path}`, { headers })).json()) as any,
    page: async (path: string) => (await fetch(`${baseUrl}${path}`, { headers })).text(),
  };
}
