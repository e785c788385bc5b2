import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The log stat line reads whole rolled-up hours from the rollups and the rest from the logs
 * (decision 024). Whatever the filter, it must say what summing the logs themselves says.
 */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-logstat-"));
Object.assign(process.env, { DATA_DIR: dataDir, PGLITE_DIR: "memory://", DATABASE_URL: "", REDIS_URL: "" });

const { getDb } = await import("~/utils/db.server");
const { rollUpUsage, HOUR } = await import("~/domain/usage/rollups.server");
const { logStat, logStatFromLogs } = await import("~/domain/logs/log-stat.server");
const { loadOptions } = await import("~/domain/options/store.server");

const T0 = 1_790_000_000 - (1_790_000_000 % HOUR);
const NOW = T0 + 6 * HOUR + 1800; // half-way through the seventh hour
let nextId = 1;

async function log(
  at: number,
  userId: number,
  model: string,
  quota: number,
  extra: { type?: number; token?: string; channel?: number } = {},
) {
  const db = await getDb();
  await db
    .insertInto("logs")
    .values({
      id: nextId++,
      created_at: at,
      type: extra.type ?? 2,
      user_id: userId,
      username: `user${userId}`,
      model_name: model,
      quota,
      prompt_tokens: quota % 7,
      completion_tokens: quota % 5,
      token_name: extra.token ?? "default",
      channel_id: extra.channel ?? 1,
    })
    .execute();
}

beforeAll(async () => {
  await loadOptions();
  // Six hours of two users on two models, at uneven minutes, plus a top-up that is not usage.
  for (let i = 0; i < 60; i += 1) {
    const at = T0 + Math.floor((i * 6 * HOUR) / 60) + ((i * 37) % 600);
    await log(at, 1 + (i % 2), i % 3 === 0 ? "claude" : "gpt-4o", 10 + i, {
      token: i % 4 === 0 ? "ci" : "default",
      channel: 1 + (i % 3),
    });
  }
  await log(T0 + 100, 1, "gpt-4o", 999_999, { type: 1 });
  await rollUpUsage(NOW);
  // Live rows since the rollup's marker (the current hour), including the last minute's.
  await log(NOW - 600, 1, "gpt-4o", 500);
  await log(NOW - 30, 2, "claude", 700);
  await log(NOW - 10, 1, "gpt-4o", 300, { token: "ci" });
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("log stat from rollups plus live logs", () => {
  const filters = {
    everything: {},
    "one user": { userId: 1 },
    "user by name": { username: "user2" },
    "one model": { modelName: "claude" },
    "user and model": { userId: 1, modelName: "gpt-4o" },
    "a range with partial hours at both ends": { start: T0 + HOUR + 1234, end: T0 + 4 * HOUR + 77 },
    "from inside an hour to now": { start: T0 + 2 * HOUR + 5, modelName: "gpt-4o" },
    "a range within one hour": { start: T0 + 3 * HOUR + 10, end: T0 + 3 * HOUR + 3000 },
    "a range ending in the live hour": { start: T0, end: NOW - 20 },
    token: { tokenName: "ci" },
    "token of one user, one model": { tokenName: "ci", userId: 1, modelName: "gpt-4o" },
    "token by user name, in a range": { tokenName: "default", username: "user2", start: T0 + HOUR + 5, end: NOW - 20 },
    channel: { channelId: 2 },
    "channel and model, in a range": { channelId: 1, modelName: "claude", start: T0 + 30, end: T0 + 5 * HOUR + 9 },
    "channel and user (answered from the logs)": { channelId: 2, userId: 1 },
  };
  for (const [name, filter] of Object.entries(filters)) {
    it(`${name}: equals the sum over the logs`, async () => {
      const fromLogs = await logStatFromLogs(filter, NOW);
      expect(fromLogs.quota).toBeGreaterThan(0);
      expect(await logStat(filter, NOW)).toEqual(fromLogs);
    });
  }

  it("really reads the rollups for rolled-up hours (a rollup row changed behind its logs shows)", async () => {
    const db = await getDb();
    const before = await logStat({ modelName: "claude" }, NOW);
    await db
      .updateTable("quota_data_models")
      .set((eb) => ({ quota: eb("quota", "+", 1000) }))
      .where("model_name", "=", "claude")
      .where("created_at", "=", T0)
      .execute();
    expect((await logStat({ modelName: "claude" }, NOW)).quota).toBe(before.quota + 1000);
    await db
      .updateTable("quota_data_models")
      .set((eb) => ({ quota: eb("quota", "-", 1000) }))
      .where("model_name", "=", "claude")
      .where("created_at", "=", T0)
      .execute();
  });

  it("a channel's and a token's stat read their own rollups", async () => {
    const db = await getDb();
    const channel = await logStat({ channelId: 2 }, NOW);
    const token = await logStat({ tokenName: "ci" }, NOW);
    await db
      .updateTable("quota_data_channels")
      .set((eb) => ({ quota: eb("quota", "+", 7) }))
      .where("channel_id", "=", 2)
      .where("created_at", "=", T0)
      .execute();
    await db
      .updateTable("quota_data_tokens")
      .set((eb) => ({ quota: eb("quota", "+", 9) }))
      .where("token_name", "=", "ci")
      .where("created_at", "=", T0)
      .execute();
    try {
      expect((await logStat({ channelId: 2 }, NOW)).quota - channel.quota).toBeGreaterThanOrEqual(7);
      expect((await logStat({ tokenName: "ci" }, NOW)).quota - token.quota).toBeGreaterThanOrEqual(9);
    } finally {
      await db
        .updateTable("quota_data_channels")
        .set((eb) => ({ quota: eb("quota", "-", 7) }))
        .where("channel_id", "=", 2)
        .where("created_at", "=", T0)
        .execute();
      await db
        .updateTable("quota_data_tokens")
        .set((eb) => ({ quota: eb("quota", "-", 9) }))
        .where("token_name", "=", "ci")
        .where("created_at", "=", T0)
        .execute();
    }
  });

  it("counts the last minute's requests and tokens for rpm and tpm", async () => {
    expect(await logStat({}, NOW)).toMatchObject({ rpm: 2, tpm: (700 % 7) + (700 % 5) + (300 % 7) + (300 % 5) });
  });
});
