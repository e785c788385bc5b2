import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedSqliteLogDatabase, seedSqliteSource } from "../support/import-history-source";
import { createImportTarget, seedImportedAccounts, type ImportTarget } from "../support/import-history-target";

// A deployment whose logs live in a second database (LOG_SQL_DSN): --log-source reads them there.
describe("--log-source", { timeout: 120_000 }, () => {
  let dir: string;
  let target: ImportTarget;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "import-hist-logsrc-"));
    seedSqliteSource(join(dir, "one-api.db"));
    seedSqliteLogDatabase(join(dir, "logs.db"));
    target = await createImportTarget(inject("dbKind"));
    await target.withDb(seedImportedAccounts);
  });
  afterAll(async () => {
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports the logs of the log database, not the main one's, and the other history from the main one", async () => {
    const run = await target.runImport([join(dir, "one-api.db"), "--apply", "--log-source", join(dir, "logs.db")]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`logs from ${join(dir, "logs.db")}`);
    expect(run.stdout).toContain("== logs: found 2, written 2");
    expect(run.stdout).toContain("== midjourneys: found 1, written 1");
    const logs = await target.withDb((db) => db.selectFrom("logs").select(["id", "content"]).orderBy("id").execute());
    expect(logs).toEqual([
      { id: 100, content: "from the log database" },
      { id: 101, content: "also from the log database" },
    ]);
  });
});
