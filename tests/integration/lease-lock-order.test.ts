import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

/**
 * The billing statements take their row locks in one order, so two of them never wait on each
 * other in a cycle. A cycle is not lost money (PostgreSQL aborts one statement and it is run
 * again), but PostgreSQL only looks for one after `deadlock_timeout` (1 s): every request
 * waiting on that payer's lease waited a second. Under load at fifty connections that was the
 * gateway's slowest request, once or twice a minute.
 *
 * The order the test forces: a new slice is asked for while a batch of charges against the same
 * lease is being written, both held up behind a third transaction on the user's row.
 */
const kind = inject("dbKind");
const databaseUrl = inject("databaseUrl");
const NODE = `lock-order-${process.pid}`;

type LeaseStore = typeof import("~/relay/billing/lease-store.server");
let store: LeaseStore;
let admin: pg.Client;
let userId = 0;
let tokenId = 0;

describe.skipIf(kind !== "postgres")("billing statements and row locks", () => {
  const serverUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    // The app's own statements, on the suite's database.
    process.env.DATABASE_URL = databaseUrl;
    store = await import("~/relay/billing/lease-store.server");
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    userId = (
      await admin.query("insert into users (username, password_hash, quota) values ($1, 'x', 1000000) returning id", [
        `lock${process.pid}`.slice(0, 12),
      ])
    ).rows[0].id;
    tokenId = (
      await admin.query(
        "insert into tokens (user_id, key_hash, key_encrypted, name, unlimited_quota) values ($1, $2, 'x', 'lock-order', true) returning id",
        [userId, `lock-order-${process.pid}-${Date.now()}`],
      )
    ).rows[0].id;
    await store.registerJournal(NODE);
  });
  afterAll(async () => {
    await admin?.query("delete from quota_leases where node_id = $1", [NODE]).catch(() => undefined);
    await admin?.query("delete from billing_journals where node_id = $1", [NODE]).catch(() => undefined);
    await admin?.end();
    const { closeDatabase } = await import("~/utils/db.server");
    await closeDatabase();
    process.env.DATABASE_URL = serverUrl;
  });

  /** Resolves once `count` backends run a statement marked `tag` and wait for a lock. */
  async function waitingOnLock(tag: string, count: number): Promise<void> {
    const until = Date.now() + 5_000;
    while (Date.now() < until) {
      const { rows } = await admin.query(
        "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like $1",
        [`%prepared:${tag}%`],
      );
      if (rows[0].n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no ${tag} statement waited for a lock`);
  }

  it("a slice taken while charges against the same lease are written: both finish at once, no deadlock", async () => {
    const payer = { userId, tokenId, limited: false };
    const first = await store.takeLease(NODE, payer, 10_000, 1);
    expect(first.ok).toBe(true);
    const leaseId = first.ok ? first.leaseId : 0;

    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    try {
      await blocker.query("begin");
      await blocker.query("select 1 from users where id = $1 for update", [userId]);
      // First in line for the user's row: a further slice for the same payer.
      const taking = store.takeLease(NODE, payer, 10_000, 1);
      await waitingOnLock("lease_take", 1);
      // Then a batch of charges against that lease.
      const settling = store.writeSettlements(NODE, [
        {
          seq: 1,
          leaseId,
          userId,
          tokenId,
          limited: false,
          charge: 10,
          channelId: 0,
          at: Math.floor(Date.now() / 1000),
        },
      ]);
      await waitingOnLock("lease_settle_json", 1);
      const released = performance.now();
      await blocker.query("commit");
      const [taken, settled] = await Promise.all([taking, settling]);
      const waitedMs = performance.now() - released;

      expect(taken.ok).toBe(true);
      expect(settled.applied).toBe(true);
      // A deadlock is found only after deadlock_timeout (1 s); without one both finish in milliseconds.
      expect(waitedMs).toBeLessThan(500);
      const lease = (await admin.query("select amount from quota_leases where id = $1", [leaseId])).rows[0];
      const user = (await admin.query("select quota, leased, used_quota from users where id = $1", [userId])).rows[0];
      expect(Number(lease.amount)).toBe(20_000 - 10);
      expect({ quota: Number(user.quota), leased: Number(user.leased), used: Number(user.used_quota) }).toEqual({
        quota: 1_000_000 - 10,
        leased: 20_000 - 10,
        used: 10,
      });
    } finally {
      await blocker.end();
    }
  });

  it("a batch writes each charge's usage log with every field as journaled, and a charge without one writes none", async () => {
    const node = `${NODE}-logs`;
    await store.registerJournal(node);
    try {
      const at = Math.floor(Date.now() / 1000);
      const other = { model_ratio: 0.075, admin_info: { use_channel: ["3", "4"] }, request_id: "req-日本", frt: -1000 };
      const logged = {
        seq: 1,
        leaseId: 0,
        userId,
        tokenId,
        limited: false,
        charge: 75,
        channelId: 4,
        at,
        log: {
          username: "用户 u",
          tokenName: "令牌 😀",
          modelName: "gpt-4o-mini",
          promptTokens: 9,
          completionTokens: 3,
          useTimeSeconds: 2,
          isStream: true,
          channelId: 4,
          group: "vip",
          content: "模型倍率 0.075，补全倍率 4",
          other,
        },
      };
      const unlogged = { seq: 2, leaseId: 0, userId, tokenId, limited: false, charge: 5, channelId: 4, at };
      const counters = async () => {
        const user = (await admin.query("select used_quota, request_count from users where id = $1", [userId])).rows[0];
        return { used: Number(user.used_quota), requests: Number(user.request_count) };
      };
      const before = await counters();
      const written = await store.writeSettlements(node, [logged, unlogged]);
      expect(written.applied).toBe(true);
      const { rows } = await admin.query(
        `select created_at, type, content, user_id, username, token_name, token_id, model_name, quota, prompt_tokens,
           completion_tokens, use_time, is_stream, channel_id, "group", other from logs where user_id = $1 and channel_id = 4`,
        [userId],
      );
      expect(rows).toHaveLength(1);
      const row = rows[0];
      expect({
        ...row,
        created_at: Number(row.created_at),
        quota: Number(row.quota),
        other: JSON.parse(row.other),
      }).toEqual({
        created_at: at,
        type: 2,
        content: "模型倍率 0.075，补全倍率 4",
        user_id: userId,
        username: "用户 u",
        token_name: "令牌 😀",
        token_id: tokenId,
        model_name: "gpt-4o-mini",
        quota: 75,
        prompt_tokens: 9,
        completion_tokens: 3,
        use_time: 2,
        is_stream: true,
        channel_id: 4,
        group: "vip",
        other,
      });
      // Both charges count, logged or not.
      expect(await counters()).toEqual({ used: before.used + 80, requests: before.requests + 2 });
    } finally {
      await store.forgetJournal(node);
    }
  });
});
