import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TIMES } from "./import-history-source";
import { createImportTarget, seedImportedAccounts, signIn, type ImportTarget } from "./import-history-target";

/**
 * The history import, proven from outside: the built `npm run import` moves a new-api source's
 * logs, top-ups, tasks and quota_data into a fresh target; the built gateway started on it then
 * shows the old logs on /log and /api/log/ and the old usage on /api/data/. A second --apply adds
 * nothing, and a run that stopped after its first batch continues without duplicates.
 */
export function describeHistoryImport(
  label: string,
  kind: "postgres" | "pglite",
  source: { open(): Promise<string>; close(): Promise<void> },
) {
  // Each step runs the import (and once the gateway) as a process: seconds each, more on a busy machine.
  describe(`history import from ${label}`, { timeout: 120_000 }, () => {
    let target: ImportTarget;
    let sourceUrl: string;

    beforeAll(async () => {
      sourceUrl = await source.open();
      target = await createImportTarget(kind);
      await target.withDb(seedImportedAccounts);
    });
    afterAll(async () => {
      await target?.drop();
      await source.close();
    });

    const logIds = () =>
      target.withDb(async (db) => (await db.selectFrom("logs").select("id").orderBy("id").execute()).map((r) => r.id));

    it("a dry run counts what it would write, lists what it would change, and writes nothing", async () => {
      const run = await target.runImport([sourceUrl]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("== logs: found 6, would write 6");
      expect(run.stdout).toMatch(/clamped #7: prompt_tokens 3000000000 is outside/);
      expect(run.stdout).toMatch(/changed #5: type 6 is not one Switchyard shows/);
      expect(run.stdout).toMatch(/== top_ups: found 2, would write 1.*dropped 1/);
      expect(run.stdout).toContain("dropped #2: user 99 is not in the target");
      expect(run.stdout).toMatch(/changed #1: data is not JSON/);
      expect(await logIds()).toEqual([]);
    });

    it("--apply writes every history table with its ids, into the monthly partitions, and moves the sequences past them", async () => {
      const run = await target.runImport([sourceUrl, "--apply"]);
      expect(run.code, run.stderr).toBe(0);
      for (const line of [
        "== logs: found 6, written 6",
        "== top_ups: found 2, written 1",
        "== midjourneys: found 1, written 1",
        "== tasks: found 1, written 1",
        "== quota_data: found 2, written 2",
      ]) {
        expect(run.stdout).toContain(line);
      }
      expect(run.stdout).toMatch(/dashboard rollups recomputed for 2026-08-01T10h/);
      await target.withDb(async (db) => {
        const parts = await sql<{
          part: string;
          id: number;
        }>`select tableoid::regclass::text as part, id from logs order by id`.execute(db);
        expect(parts.rows.map((r) => [r.id, r.part])).toEqual([
          [1, "logs_y2026m09"],
          [2, "logs_y2026m09"],
          [3, "logs_y2026m10"],
          [4, "logs_y2026m10"],
          [5, "logs_y2026m10"],
          [7, "logs_y2026m10"],
        ]);
        const msLog = await db
          .selectFrom("logs")
          .select(["created_at", "prompt_tokens"])
          .where("id", "=", 7)
          .executeTakeFirstOrThrow();
        expect(msLog).toEqual({ created_at: TIMES.octMs, prompt_tokens: 2_147_483_647 });
        const mj = await db
          .selectFrom("midjourneys")
          .select(["submit_time", "finish_time"])
          .where("id", "=", 1)
          .executeTakeFirstOrThrow();
        expect(mj).toEqual({ submit_time: TIMES.oct * 1000, finish_time: TIMES.oct * 1000 + 60_000 });
        const topUp = await db
          .selectFrom("top_ups")
          .select(["money_cents", "quota", "status", "paid_time"])
          .where("id", "=", 1)
          .executeTakeFirstOrThrow();
        expect(topUp).toEqual({ money_cents: 730, quota: 5_000_000, status: "success", paid_time: TIMES.octTopUp });
        // The gateway's next rows get ids past the imported ones.
        const next = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('logs', 'id'))::int as id`.execute(
          db,
        );
        expect(next.rows[0]!.id).toBeGreaterThan(7);
      });
    });

    it("the gateway started on the target shows the old logs on /log and /api/log/ and the old usage on the dashboard", async () => {
      const gateway = await target.startGateway();
      try {
        const root = await signIn(gateway.baseUrl, "root", "123456");
        const list = await root.api(
          `/api/log/?p=1&page_size=100&start_timestamp=${TIMES.augHour}&end_timestamp=${TIMES.octMs + 10}`,
        );
        expect(list.success).toBe(true);
        const items = list.data.items as { id: number; created_at: number; content: string; quota: number }[];
        expect(items.map((i) => [i.id, i.created_at]).sort((a, b) => a[0]! - b[0]!)).toEqual([
          [1, TIMES.sept],
          [2, TIMES.septLater],
          [3, TIMES.oct],
          [4, TIMES.octTopUp],
          [5, TIMES.octRefund],
          [7, TIMES.octMs],
        ]);
        const page = await root.page("/log?start=2026-09-01T00:00&end=2026-11-01T00:00");
        expect(page).toContain("september call");
        expect(page).toContain("2026-09-15");
        const usage = await root.api(`/api/data/?start_timestamp=${TIMES.augHour}&end_timestamp=${TIMES.octMs + 3600}`);
        expect(usage.success).toBe(true);
        const rows = usage.data as { model_name: string; quota: number; count: number; created_at: number }[];
        const quotaOf = (model: string) => rows.filter((r) => r.model_name === model).reduce((s, r) => s + r.quota, 0);
        // Every consumption log of the model, including the one written in ms.
        expect(quotaOf("gpt-4o-old")).toBe(1000 + 500 + 2000 + 700);
        // An hour whose logs the source had already deleted keeps its quota_data.
        expect(rows.find((r) => r.model_name === "gpt-3.5-gone")).toMatchObject({
          created_at: TIMES.augHour,
          quota: 900,
          count: 3,
        });
      } finally {
        await gateway.stop();
      }
    });

    it("a second --apply adds nothing", async () => {
      const run = await target.runImport([sourceUrl, "--apply"]);
      expect(run.code, run.stderr).toBe(0);
      for (const table of ["logs", "top_ups", "midjourneys", "tasks", "quota_data"])
        expect(run.stdout).toMatch(new RegExp(`== ${table}: found \\d+, written 0`));
      expect(run.stdout).toContain("present 6: rows up to id 7 are already in the target");
      expect(await logIds()).toEqual([1, 2, 3, 4, 5, 7]);
    });

    it("a run that stopped after its first batch continues after it, without duplicates", async () => {
      // What a run killed after committing its first batch (ids 1-2) leaves behind.
      await target.withDb(async (db) => void (await db.deleteFrom("logs").where("id", ">", 2).execute()));
      const run = await target.runImport([sourceUrl, "--apply", "--skip-logs"]);
      expect(run.stdout).toContain("skipped (--skip-logs)");
      expect(await logIds()).toEqual([1, 2]);
      const resumed = await target.runImport([sourceUrl, "--apply"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain("== logs: found 6, written 4");
      expect(resumed.stdout).toContain("present 2: rows up to id 2 are already in the target");
      expect(await logIds()).toEqual([1, 2, 3, 4, 5, 7]);
    });

    it("--logs-since imports only the logs from that day", async () => {
      await target.withDb(async (db) => void (await db.deleteFrom("logs").execute()));
      const run = await target.runImport([sourceUrl, "--apply", "--logs-since", "2026-10-01"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("== logs: found 4, written 4");
      expect(await logIds()).toEqual([3, 4, 5, 7]);
    });
  });
}
