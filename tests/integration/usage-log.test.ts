import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { billingWritten, loginRoot, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, setOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * The usage log row of a relayed call and the balances beside it, read straight from PostgreSQL
 * (what users see through /api/log is tested in log-api.test.ts). On embedded PGlite the database
 * lives inside the server process, so this file runs in the PostgreSQL project only.
 */
const databaseUrl = inject("databaseUrl");
let root: ApiSession;
let upstream: MockUpstream;
let client: pg.Client | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  root = await loginRoot();
  upstream = await startOpenAiMock();
  client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await upstream?.close();
});

/** What the gateway's quota leases hold of a payer is exactly what its `leased` columns say. */
async function expectLeasesAccounted(userId: number, tokenId?: number) {
  const {
    rows: [u],
  } = await client!.query(
    "select leased, (select coalesce(sum(amount), 0) from quota_leases where user_id = $1) as held from users where id = $1",
    [userId],
  );
  expect(Number(u.leased)).toBe(Number(u.held));
  if (tokenId === undefined) return;
  const {
    rows: [t],
  } = await client!.query(
    "select leased, (select coalesce(sum(amount), 0) from quota_leases where token_id = $1 and token_limited) as held from tokens where id = $1",
    [tokenId],
  );
  expect(Number(t.leased)).toBe(Number(t.held));
}

describe.skipIf(!databaseUrl)("usage log", () => {
  it("writes one consume log per call with tokens, quota, ratios, first-response time and the channel chain", async () => {
    const model = uniqueModel("log");
    await mergeOption(root, "ModelRatio", { [model]: 2 });
    await mergeOption(root, "CompletionRatio", { [model]: 3 });
    const channelId = await createChannel(root, { base_url: upstream.url, models: model });
    const { client: openai, user } = await userWithToken(100_000);
    const stream = await openai.chat.completions.create({
      model,
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    for await (const _ of stream) void _;
    await billingWritten();
    const { rows } = await client!.query("select * from logs where user_id = $1 and type = 2", [user.userId]);
    expect(rows).toHaveLength(1);
    const log = rows[0];
    expect(log).toMatchObject({
      model_name: model,
      prompt_tokens: 9,
      completion_tokens: 3,
      is_stream: true,
      channel_id: channelId,
      token_name: "relay",
      username: user.username,
      group: "default",
    });
    expect(Number(log.quota)).toBe((9 + 3 * 3) * 2);
    const other = JSON.parse(log.other);
    expect(other).toMatchObject({
      model_ratio: 2,
      completion_ratio: 3,
      group_ratio: 1,
      admin_info: { use_channel: [String(channelId)] },
    });
    expect(other.frt).toBeGreaterThanOrEqual(0);
    await expectLeasesAccounted(user.userId);
  });

  it("bills and logs every call of a concurrent burst exactly (holds from leases, settlements written in batches)", async () => {
    const model = uniqueModel("burst");
    await mergeOption(root, "ModelRatio", { [model]: 2 });
    await mergeOption(root, "CompletionRatio", { [model]: 3 });
    await createChannel(root, { base_url: upstream.url, models: model });
    const payers = await Promise.all(
      [1, 2, 3].map(() => userWithToken(1_000_000, { unlimited_quota: false, remain_quota: 400_000 })),
    );
    const calls = payers.flatMap((p) =>
      Array.from({ length: 12 }, async (_, i) => {
        if (i % 2 === 0)
          return p.client.chat.completions.create({ model, messages: [{ role: "user", content: `hi ${i}` }] });
        const stream = await p.client.chat.completions.create({
          model,
          stream: true,
          messages: [{ role: "user", content: `hi ${i}` }],
        });
        for await (const _ of stream) void _;
      }),
    );
    await Promise.all(calls);
    await billingWritten();
    for (const p of payers) {
      const { rows } = await client!.query(
        "select quota, prompt_tokens, completion_tokens, token_id, other from logs where user_id = $1 and type = 2",
        [p.user.userId],
      );
      expect(rows).toHaveLength(12);
      for (const row of rows) {
        expect(Number(row.quota)).toBe((row.prompt_tokens + row.completion_tokens * 3) * 2);
        expect(row.token_id).toBe(p.tokenId);
      }
      expect(new Set(rows.map((r) => JSON.parse(r.other).request_id)).size).toBe(12);
      const logged = rows.reduce((sum, r) => sum + Number(r.quota), 0);
      const {
        rows: [u],
      } = await client!.query("select quota, used_quota, request_count from users where id = $1", [p.user.userId]);
      expect({ quota: Number(u.quota), used: Number(u.used_quota), count: Number(u.request_count) }).toEqual({
        quota: 1_000_000 - logged,
        used: logged,
        count: 12,
      });
      const {
        rows: [t],
      } = await client!.query("select remain_quota, used_quota from tokens where id = $1", [p.tokenId]);
      expect({ remain: Number(t.remain_quota), used: Number(t.used_quota) }).toEqual({
        remain: 400_000 - logged,
        used: logged,
      });
      await expectLeasesAccounted(p.user.userId, p.tokenId);
    }
  });

  it("gives an idle payer's leased slice back within seconds, leaving the balance whole", async () => {
    const model = uniqueModel("idle");
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: upstream.url, models: model });
    const {
      client: openai,
      user,
      tokenId,
    } = await userWithToken(100_000, { unlimited_quota: false, remain_quota: 50_000 });
    await openai.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
    await billingWritten();
    const leased = async () => {
      const {
        rows: [row],
      } = await client!.query(
        "select u.leased as user_leased, t.leased as token_leased from users u, tokens t where u.id = $1 and t.id = $2",
        [user.userId, tokenId],
      );
      return [Number(row.user_leased), Number(row.token_leased)];
    };
    expect((await leased())[0]).toBeGreaterThan(0);
    await expect.poll(leased, { timeout: 8_000, interval: 250 }).toEqual([0, 0]);
    await expectLeasesAccounted(user.userId, tokenId);
  });

  it("honours LogConsumeEnabled (charge still taken, no row)", async () => {
    const model = uniqueModel("nolog");
    await mergeOption(root, "ModelRatio", { [model]: 1 });
    await createChannel(root, { base_url: upstream.url, models: model });
    await setOption(root, "LogConsumeEnabled", "false");
    try {
      const { client: openai, user } = await userWithToken(100_000);
      await openai.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
      await billingWritten();
      const { rows } = await client!.query("select count(*)::int as n from logs where user_id = $1 and type = 2", [
        user.userId,
      ]);
      expect(rows[0].n).toBe(0);
      const { rows: users } = await client!.query("select used_quota from users where id = $1", [user.userId]);
      expect(Number(users[0].used_quota)).toBeGreaterThan(0);
    } finally {
      await setOption(root, "LogConsumeEnabled", "true");
    }
  });
});
