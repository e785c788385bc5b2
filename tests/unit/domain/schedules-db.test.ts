import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTP_PASSWORD, SMTP_USER, startTestSmtp, type TestSmtp } from "../../mocks/smtp-server";

/**
 * The schedules' database side (decision 029) on a real PGlite, on a fake clock: one claim per
 * period whatever the number of ticks, log retention dropping months and trimming the edge
 * month (rollups untouched), and the quota reminder sent once per crossing.
 */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-schedules-"));
Object.assign(process.env, { DATA_DIR: dataDir, PGLITE_DIR: "memory://", DATABASE_URL: "", REDIS_URL: "" });

const { getDb } = await import("~/utils/db.server");
const { claimJobRun, markJobFinished, readJobRun } = await import("~/domain/jobs/job-runs.server");
const { pruneLogsBefore, RETENTION_BATCH_ROWS } = await import("~/domain/logs/retention.server");
const { loadOptions, saveOption } = await import("~/domain/options/store.server");
const { sweepQuotaReminders } = await import("~/domain/users/quota-reminder.server");
const { mailRootAboutChannels } = await import("~/domain/channels/status-mail.server");

let smtp: TestSmtp;
beforeAll(async () => {
  await loadOptions();
  smtp = await startTestSmtp();
  for (const [key, value] of Object.entries({
    SMTPServer: "127.0.0.1",
    SMTPPort: String(smtp.port),
    SMTPAccount: SMTP_USER,
    SMTPToken: SMTP_PASSWORD,
  })) {
    expect((await saveOption(key, value)).ok).toBe(true);
  }
});
afterAll(async () => {
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("claiming a schedule's period", () => {
  const T = 1_800_000_000_000;
  const MIN = 60_000;

  it("two nodes ticking at the same moment start one run; the next starts a period later, not while one runs", async () => {
    expect(await claimJobRun("test.job", 5 * MIN, T)).toBe(true);
    expect(await claimJobRun("test.job", 5 * MIN, T)).toBe(false);
    await markJobFinished("test.job", "ok", "done", T + 1000);
    expect(await claimJobRun("test.job", 5 * MIN, T + 4 * MIN)).toBe(false);
    expect(await claimJobRun("test.job", 5 * MIN, T + 5 * MIN)).toBe(true);
    // Still running a period later: not started twice.
    expect(await claimJobRun("test.job", 5 * MIN, T + 10 * MIN)).toBe(false);
    await markJobFinished("test.job", "failed", "boom", T + 11 * MIN);
    const row = await readJobRun("test.job");
    expect(row).toMatchObject({
      last_started_at: T + 5 * MIN,
      last_finished_at: T + 11 * MIN,
      last_outcome: "failed",
      last_message: "boom",
      running: false,
    });
  });
});

describe("更新所有余额 from the console", () => {
  it("shows the run going from the moment it is asked for, before any worker takes it; one at a time; a queue that refuses leaves nothing running", async () => {
    const { createChannels } = await import("~/domain/channels/channels.server");
    const { startBalanceRefresh } = await import("~/relay/channel-schedules.server");
    const { readSchedules } = await import("../../../jobs/schedule-view");
    const created = await createChannels({
      type: 1,
      name: "balances",
      key: "sk-one\nsk-two",
      base_url: "http://127.0.0.1:9",
      models: ["gpt-4o-mini"],
      group: ["default"],
    });
    expect(created.ok).toBe(true);
    const total = (
      await (await getDb()).selectFrom("channels").select("id").where("type", "not in", [2, 5, 36]).execute()
    ).length;
    expect(total).toBeGreaterThanOrEqual(2);

    // Queued, but no worker has it yet (a busy or slow one): the page already says it is going.
    let queued = 0;
    expect(await startBalanceRefresh(async () => void (queued += 1))).toEqual({ ok: true });
    expect(queued).toBe(1);
    expect((await readSchedules()).balances).toMatchObject({ running: true, done: 0, total });
    // A second press while it goes is refused, and queues nothing.
    expect(await startBalanceRefresh(async () => void (queued += 1))).toEqual({
      ok: false,
      message: "余额更新已在运行中",
    });
    expect(queued).toBe(1);
    await markJobFinished("channels.refresh-balances", "ok", "done");

    // Redis away: the press is refused with the queue's reason, and the run is not left "going".
    expect(
      await startBalanceRefresh(async () => {
        throw new Error("queue down");
      }),
    ).toEqual({ ok: false, message: "queue down" });
    expect((await readSchedules()).balances.running).toBe(false);
  });
});

describe("log retention", () => {
  const month = (y: number, m: number) => Date.UTC(y, m - 1, 1) / 1000;

  it("drops whole months older than the cutoff (and months a crashed run left detached), deletes the edge month's older rows in batches, keeps newer rows and the rollups", async () => {
    const db = await getDb();
    for (const [y, m] of [
      [2025, 1],
      [2025, 2],
      [2025, 3],
    ] as const) {
      await sql
        .raw(`create table logs_y${y}m0${m} partition of logs for values from (${month(y, m)}) to (${month(y, m + 1)})`)
        .execute(db);
    }
    const insert = (from: number, count: number, step: number) =>
      sql`insert into logs (created_at, type, content, user_id, quota) select ${from}::int8 + g * ${step}, 2, 'x', 1, 1 from generate_series(0, ${count - 1}) g`.execute(
        db,
      );
    await insert(month(2025, 1), 3000, 60); // January
    await insert(month(2025, 2), 3000, 60); // February
    const edge = month(2025, 3) + 10 * 86_400; // 11 March
    await insert(month(2025, 3), RETENTION_BATCH_ROWS + 1000, 1); // early March: older than the cutoff (> one batch)
    await insert(edge, 500, 60); // from the cutoff on: kept
    await insert(month(2024, 6), 200, 60); // before any partition: in logs_default
    await db
      .insertInto("quota_data")
      .values({
        user_id: 1,
        username: "root",
        model_name: "m",
        created_at: month(2025, 1),
        token_used: 1,
        count: 1,
        quota: 1,
      })
      .execute();

    // A month a crashed run detached but did not drop yet.
    await sql`create table retired_logs_y2024m01 (like logs)`.execute(db);

    const result = await pruneLogsBefore(edge, { exactCount: true });
    expect(result.dropped.sort()).toEqual(["logs_y2025m01", "logs_y2025m02"]);
    expect(result.droppedRows).toBe(6000);
    expect(result.deletedRows).toBe(RETENTION_BATCH_ROWS + 1000 + 200);
    const left = await sql<{
      n: number;
      oldest: number;
    }>`select count(*)::int8 as n, min(created_at) as oldest from logs where created_at < ${month(2025, 4)}`.execute(
      db,
    );
    expect(Number(left.rows[0]!.n)).toBe(500);
    expect(Number(left.rows[0]!.oldest)).toBe(edge);
    const tables = await sql<{
      relname: string;
    }>`select relname from pg_class where relname like 'logs_y2025%' and relkind = 'r'`.execute(db);
    expect(tables.rows.map((r) => r.relname)).toEqual(["logs_y2025m03"]);
    expect((await sql`select 1 from pg_class where relname like 'retired_logs%'`.execute(db)).rows).toHaveLength(0);
    expect(
      await db.selectFrom("quota_data").select("quota").where("created_at", "=", month(2025, 1)).executeTakeFirst(),
    ).toEqual({ quota: 1 });
  });
});

/** A user row with an address at example.test (quota 5,000 unless given). */
async function newUser(username: string, values: { language?: string; role?: number; quota?: number } = {}) {
  const db = await getDb();
  const email = `${username}@example.test`;
  const { id } = await db
    .insertInto("users")
    .values({
      username,
      password_hash: "x",
      email,
      quota: values.quota ?? 5000,
      leased: 0,
      used_quota: 0,
      request_count: 0,
      shortfall_quota: 0,
      aff_quota: 0,
      aff_history: 0,
      created_time: 0,
      language: values.language,
      role: values.role,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, email };
}

describe("quota reminder", () => {
  it("mails once when the balance falls under QuotaRemindThreshold, again only after it went back above", async () => {
    const db = await getDb();
    expect((await saveOption("QuotaRemindThreshold", "1000")).ok).toBe(true);
    const { id, email } = await newUser("lowuser");
    // A user who never had the threshold is never mailed.
    await newUser("poor", { quota: 0 });
    const setQuota = (quota: number) => db.updateTable("users").set({ quota }).where("id", "=", id).execute();

    await sweepQuotaReminders(); // arms lowuser
    await setQuota(400);
    expect(await sweepQuotaReminders()).toMatchObject({ reminded: 1, mailed: 1 });
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toContain("额度即将用尽");
    expect(mail.text).toContain("/topup");
    await setQuota(300);
    expect(await sweepQuotaReminders()).toMatchObject({ reminded: 0, mailed: 0 });
    await setQuota(2000);
    await sweepQuotaReminders(); // re-armed
    await setQuota(10);
    expect(await sweepQuotaReminders()).toMatchObject({ reminded: 1, mailed: 1 });
    await smtp.nextMailTo(email);
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes("poor@"))).toHaveLength(0);
  });
});

describe("background mails in the reader's language", () => {
  const CJK = /[\u3400-\u9fff]/;
  it("the quota reminder reaches a user who reads the console in English in English, with the amount and link", async () => {
    const db = await getDb();
    expect((await saveOption("QuotaRemindThreshold", "1000")).ok).toBe(true);
    const { id, email } = await newUser("enreader", { language: "en" });
    await sweepQuotaReminders(); // arms
    await db.updateTable("users").set({ quota: 400 }).where("id", "=", id).execute();
    await sweepQuotaReminders();
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toMatch(/ quota reminder: your quota is nearly used up$/);
    expect(mail.text).toMatch(
      /^Your quota is nearly used up: \S+ left\. Please top up so that nothing stops working\.\nTop-up link: \S+\/topup$/,
    );
    expect(mail.html).toMatch(/<a href="[^"]+\/topup">/);
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(CJK);
  });

  it("root's channel notice comes in root's language, Chinese while it is not known", async () => {
    const db = await getDb();
    const existingRoot = await db
      .selectFrom("users")
      .select("id")
      .where("role", "=", 100)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirst();
    const root = existingRoot ? { id: existingRoot.id } : await newUser("rootreader", { role: 100 });
    const rootEmail = "root-reader@example.test";
    await db.updateTable("users").set({ email: rootEmail, language: "" }).where("id", "=", root.id).execute();
    const changes = [
      { id: 7, name: "east", enabled: false, reason: "该令牌已过期" },
      { id: 8, name: "west", enabled: true, reason: "" },
    ];
    expect(await mailRootAboutChannels(changes)).toBe(true);
    const chinese = await smtp.nextMailTo(rootEmail);
    expect(chinese.subject).toMatch(/ 通道状态变更：禁用 1 个，启用 1 个$/);
    expect(chinese.text).toBe("通道「east」（#7）已被禁用，原因：该令牌已过期\n通道「west」（#8）已被启用");

    await db.updateTable("users").set({ language: "en" }).where("id", "=", root.id).execute();
    expect(await mailRootAboutChannels(changes)).toBe(true);
    const english = await smtp.nextMailTo(rootEmail);
    expect(english.subject).toMatch(/ channel changes: 1 disabled, 1 enabled$/);
    expect(english.text).toBe(
      "Channel “east” (#7) was disabled, reason: This token has expired\nChannel “west” (#8) was enabled",
    );
  });
});
