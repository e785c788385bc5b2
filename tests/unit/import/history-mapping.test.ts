import { describe, expect, it } from "vitest";
import { copyLine } from "~/import/history/batch-writer";
import { logsMove } from "~/import/history/logs";
import { ImportReport } from "~/import/report";
import type { ImportContext } from "~/import/types";

const ctx = () =>
  ({
    report: new ImportReport(false),
    options: { source: "x", apply: false, skipLogs: false },
  }) as unknown as ImportContext;

describe("history logs mapping", () => {
  it("one-api's elapsed_time (milliseconds) becomes use_time in seconds", async () => {
    const c = ctx();
    const map = await logsMove.mapper(c, new Set(["id", "created_at", "type", "elapsed_time", "quota"]));
    const cells = map({ id: 9, created_at: 1_760_000_000, type: 2, elapsed_time: 2_600, quota: 10 })!;
    expect(cells[logsMove.targetColumns.indexOf("use_time")]).toBe(3);
    expect(cells[logsMove.targetColumns.indexOf("created_at")]).toBe(1_760_000_000);
  });

  it("a time in milliseconds becomes seconds; an unknown type becomes 0 and is reported", async () => {
    const c = ctx();
    const map = await logsMove.mapper(c, new Set(["id", "created_at", "type", "use_time"]));
    const cells = map({ id: 4, created_at: 1_760_000_000_123, type: 5, use_time: 7 })!;
    expect(cells[logsMove.targetColumns.indexOf("created_at")]).toBe(1_760_000_000);
    expect(cells[logsMove.targetColumns.indexOf("type")]).toBe(0);
    expect(cells[logsMove.targetColumns.indexOf("use_time")]).toBe(7);
    expect(c.report.format()).toContain("changed #4: type 5 is not one Switchyard shows");
  });

  it("--logs-since narrows the source read by created_at in seconds", () => {
    const c = {
      ...ctx(),
      options: { source: "x", apply: false, skipLogs: false, logsSince: new Date("2026-10-01T00:00:00Z") },
    } as ImportContext;
    expect(logsMove.where!(c)).toEqual({ sql: "created_at >= ?", params: [Date.parse("2026-10-01T00:00:00Z") / 1000] });
  });
});

describe("COPY text lines", () => {
  it("escape the separators, mark NULL, and write booleans as t/f", () => {
    expect(copyLine([1, "a\tb\nc\\d\re", null, true, false])).toBe("1\ta\\tb\\nc\\\\d\\re\t\\N\tt\tf\n");
  });
});
