import { describe, inject, it } from "vitest";
import { describeHistoryImport } from "../support/import-history-scenario";
import { dropMariadbDatabase, mariadbReachable, seedMariadbSource } from "../support/import-history-source";

// A new-api MySQL/MariaDB database. Locally the file is skipped when no MariaDB answers on
// 127.0.0.1:3306; with MARIADB_URL set (.ci/run starts MariaDB and sets it) it must run.
const reachable = await mariadbReachable();
const name = `import_hist_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;

if (reachable) {
  describeHistoryImport("a new-api MariaDB database", inject("dbKind"), {
    open: () => seedMariadbSource(name),
    close: () => dropMariadbDatabase(name),
  });
} else if (process.env.MARIADB_URL) {
  describe("history import from MariaDB", () => {
    it("needs the MariaDB server MARIADB_URL names", () => {
      throw new Error("MariaDB is not reachable at MARIADB_URL");
    });
  });
} else {
  describe.skip("history import from MariaDB (no MariaDB on 127.0.0.1:3306)", () => {
    it("skipped locally", () => undefined);
  });
}
