import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { describeHistoryImport } from "../support/import-history-scenario";
import { seedSqliteSource } from "../support/import-history-source";

// A new-api SQLite file (its default one-api.db) imported into this suite's database engine.
let dir = "";
describeHistoryImport("a new-api SQLite file", inject("dbKind"), {
  async open() {
    dir = mkdtempSync(join(tmpdir(), "import-hist-sqlite-"));
    const path = join(dir, "one-api.db");
    seedSqliteSource(path);
    return path;
  },
  async close() {
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});
