import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The hourly rollups the dashboard and log statistics read (decision 023), against a real
 * database (PGlite in memory): sums per user, model and hour, never counted twice however
 * often a run repeats, and late logs (a journal replayed after a crash) picked up.
 */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-rollup-"));
Object.assign(process.env, { DATA_DIR: dataDir, PGLITE_DIR: "memory://", DATABASE_URL: "", REDIS_URL: "" });

const { getDb } = await import("~/utils/db.server");
const { rollUpUsage, HOUR } = await import("~/domain/usage/rollups.server");
const { runScheduledRollup } = await import("~/domain/usage/rollup-schedule.server");
const { loadOptions, saveOption } = await import("~/domain/options/store.server");
const { readHourlyUsage } = await import("~/domain/usage/usage-data.server");

const T0 = 1_790_000_000 - (1_790_000_000 % HOUR); // an hour boundary
let nextId = 1;

async function log(at: number, userId: number, model: string, quota: number, tokens: [number, number], type = 2) {
  const db = await getDb();
  await db
    .insertInto("logs")
    .values({
      id: nextId++,
      created_at: at,
      type,
      user_id: userId,
      username: `user${userId}`,
      model_name: model,
      quota,
      prompt_tokens: tokens[0],
      completion_tokens: tokens[1],
    })
    .execute();
}

async function rollups() {
  const db = await getDb();
  const rows = await db
    .selectFrom("quota_data")
    .select(["user_id", "model_name", "created_at", "count", "token_used", "quota"])
    .orderBy("created_at")
    .orderBy("user_id")
    .orderBy("model_name")
    .execute();
  return rows.map((r) => ({
    ...r,
    created_at: Number(r.created_at) - T0,
    count: Number(r.count),
    token_used: Number(r.token_used),
    quota: Number(r.quota),
  }));
}

beforeAll(async () => {
  await loadOptions();
  await log(T0 + 10, 1, "gpt-4o", 100, [10, 5]);
  await log(T0 + 20, 1, "gpt-4o", 200, [20, 5]);
  await log(T0 + 30, 1, "claude", 50, [3, 2]);
  await log(T0 + 40, 2, "gpt-4o", 70, [7, 0]);
  await log(T0 + HOUR + 5, 1, "gpt-4o", 30, [1, 1]);
  await log(T0 + 50, 1, "gpt-4o", 999_999, [0, 0], 1); // a top-up: not usage
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("hourly usage rollups", () => {
  it("sums consumption per user, model and hour", async () => {
    await rollUpUsage(T0 + HOUR + 600);
    expect(await rollups()).toEqual([
      { user_id: 1, model_name: "claude", created_at: 0, count: 1, token_used: 5, quota: 50 },
      { user_id: 1, model_name: "gpt-4o", created_at: 0, count: 2, token_used: 40, quota: 300 },
      { user_id: 2, model_name: "gpt-4o", created_at: 0, count: 1, token_used: 7, quota: 70 },
      { user_id: 1, model_name: "gpt-4o", created_at: HOUR, count: 1, token_used: 2, quota: 30 },
    ]);
  });

  it("keeps the same sums per model over all users", async () => {
    const db = await getDb();
    const rows = await db
      .selectFrom("quota_data_models")
      .selectAll()
      .orderBy("created_at")
      .orderBy("model_name")
      .execute();
    expect(
      rows.map((r) => [
        Number(r.created_at) - T0,
        r.model_name,
        Number(r.count),
        Number(r.token_used),
        Number(r.quota),
      ]),
    ).toEqual([
      [0, "claude", 1, 5, 50],
      [0, "gpt-4o", 3, 47, 370],
      [HOUR, "gpt-4o", 1, 2, 30],
    ]);
  });

  it("never counts twice when runs repeat, and the partial current hour catches up", async () => {
    const before = await rollups();
    await rollUpUsage(T0 + HOUR + 700);
    await rollUpUsage(T0 + HOUR + 800);
    expect(await rollups()).toEqual(before);
    await log(T0 + HOUR + 900, 1, "gpt-4o", 10, [1, 0]);
    await rollUpUsage(T0 + 2 * HOUR + 60);
    const current = (await rollups()).find((r) => r.created_at === HOUR && r.user_id === 1);
    expect(current).toMatchObject({ count: 2, quota: 40 });
  });

  it("a log that arrives late for an earlier hour (journal replay) is counted when its hour is recomputed", async () => {
    await log(T0 + 100, 2, "gpt-4o", 5, [1, 1]);
    await rollUpUsage(T0 + 3 * HOUR + 60);
    const user2 = (await rollups()).find((r) => r.created_at === 0 && r.user_id === 2);
    expect(user2).toMatchObject({ count: 2, quota: 75 });
  });

  it("readers see rolled-up hours plus the logs after the last run, equal to summing the logs", async () => {
    // Written after the last run (which rolled up to T0 + 3h): only the live part can see it.
    await log(T0 + 3 * HOUR + 30, 1, "claude", 11, [2, 2]);
    const range = { start: T0, end: T0 + 4 * HOUR };
    const seen = await readHourlyUsage({ kind: "all" }, range);
    const db = await getDb();
    const logs = await db
      .selectFrom("logs")
      .select(["model_name", "quota", "created_at"])
      .where("type", "=", 2)
      .execute();
    const total = (rows: { quota: number | string }[]) => rows.reduce((s, r) => s + Number(r.quota), 0);
    expect(total(seen)).toBe(total(logs));
    expect(seen.find((r) => r.created_at === T0 + 3 * HOUR && r.model_name === "claude")).toMatchObject({
      count: 1,
      quota: 11,
    });
    const mine = await readHourlyUsage({ kind: "user", userId: 1 }, range);
    const myLogs = await db.selectFrom("logs").select("quota").where("type", "=", 2).where("user_id", "=", 1).execute();
    expect(total(mine)).toBe(total(myLogs));
    expect(total(mine)).toBeLessThan(total(seen));
  });

  it("the scheduled run honours DataExportEnabled and DataExportInterval", async () => {
    expect((await saveOption("DataExportInterval", "5")).ok).toBe(true);
    await log(T0 + 3 * HOUR + 100, 3, "gpt-4o", 9, [1, 1]);
    // The last run was at T0 + 3h + 60: two minutes later is not due yet.
    expect(await runScheduledRollup(T0 + 3 * HOUR + 180)).toMatch(/not due/);
    expect((await rollups()).some((r) => r.user_id === 3)).toBe(false);
    expect(await runScheduledRollup(T0 + 3 * HOUR + 400)).toMatch(/rollup: \d+ hourly rows/);
    expect((await rollups()).some((r) => r.user_id === 3)).toBe(true);
    expect((await saveOption("DataExportEnabled", "false")).ok).toBe(true);
    expect(await runScheduledRollup(T0 + 5 * HOUR)).toMatch(/off/);
  });
});
