import { describe, expect, it } from "vitest";
import { parseImportArgs } from "../../../app/import/cli-args";
import { maskSource, mysqlUrlFromGoDsn } from "../../../app/import/source/open";

describe("npm run import: the command line", () => {
  it("takes a source, --apply, --logs-since and --log-source", () => {
    const parsed = parseImportArgs([
      "./one-api.db",
      "--apply",
      "--logs-since",
      "2025-03-01",
      "--log-source=mysql://u:p@h/logs",
    ]);
    expect(parsed).toEqual({
      ok: true,
      value: {
        source: "./one-api.db",
        apply: true,
        skipLogs: false,
        logsSince: new Date("2025-03-01T00:00:00Z"),
        logSource: "mysql://u:p@h/logs",
      },
    });
    expect(parseImportArgs(["x.db"])).toMatchObject({ ok: true, value: { apply: false, skipLogs: false } });
  });

  it("says what is wrong instead of guessing", () => {
    expect(parseImportArgs([])).toMatchObject({ ok: false, message: expect.stringContaining("usage: npm run import") });
    expect(parseImportArgs(["a.db", "b.db"])).toMatchObject({
      ok: false,
      message: expect.stringContaining("one source only"),
    });
    expect(parseImportArgs(["a.db", "--force"])).toMatchObject({
      ok: false,
      message: expect.stringContaining("unknown option --force"),
    });
    expect(parseImportArgs(["a.db", "--skip-logs", "--logs-since", "2025-01-01"])).toMatchObject({
      ok: false,
      message: "--skip-logs and --logs-since exclude each other",
    });
    expect(parseImportArgs(["a.db", "--logs-since", "2025-02-30"])).toMatchObject({
      ok: false,
      message: "--logs-since 2025-02-30 is not a real day",
    });
    expect(parseImportArgs(["a.db", "--logs-since", "yesterday"])).toMatchObject({
      ok: false,
      message: "--logs-since wants a day as YYYY-MM-DD",
    });
  });

  it("accepts the sources' own MySQL DSN and never prints a password", () => {
    expect(mysqlUrlFromGoDsn("oneapi:s3cret@tcp(db.local:3306)/oneapi?charset=utf8mb4&parseTime=True")).toBe(
      "mysql://oneapi:s3cret@db.local:3306/oneapi",
    );
    expect(mysqlUrlFromGoDsn("./one-api.db")).toBeUndefined();
    expect(maskSource("mysql://root:s3cret@127.0.0.1:3306/oneapi")).toBe("mysql://root:***@127.0.0.1:3306/oneapi");
    expect(maskSource("oneapi:s3cret@tcp(db:3306)/oneapi")).not.toContain("s3cret");
  });
});
