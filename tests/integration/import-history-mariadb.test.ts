import { describe, inject, it } from "vitest";
import { describeHistoryImport } from "../support/import-history-scenario";
import { dropMariadbDatabase, mariadbReachable, seedMariadbSource } from "../support/import-history-source";

// A new-api MySQL/MariaDB database. Locally the file is skipped when no MariaDB answers on
// 127.0.0.1:3306; in CI (CI set, as .ci/run's environment has it) it must run, so it fails there.
const reachable = await mariadbReachable();
const name = `import_hist_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;

if (reachable) {
  describeHistoryImport("a new-api MariaDB database", inject("dbKind"), {
    open: () => seedMariadbSource(name),
    close: () => dropMariadbDatabase(name),
  });
} else if (process.env.CI) {
  describe("history import from MariaDB", () => {
    it("needs a MariaDB server on 127.0.0.1:3306 in CI", () => {
      throw new Error("MariaDB is not reachable on 127.0.0.1:3306");
    });
  });
} else {
  describe.skip("history import from MariaDB (no MariaDB on 127.0.0.1:3306)", () => {
    it("skipped locally", () => undefined);
  });
}
