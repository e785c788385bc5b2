import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { baseUrl, billingWritten, loginRoot, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * Quota leases under concurrency (issue 11, items 9 and 10): a user whose tokens race for the
 * last of its balance gets every request answered, and a balance edit afterwards takes effect.
 */
const databaseUrl = inject("databaseUrl");
let root: ApiSession;
let upstream: MockUpstream;
let db: pg.Client | undefined;

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock();
  if (databaseUrl) {
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  }
});
afterAll(async () => {
  await db?.end();
  await upstream?.close();
});

/** One chat call that must be answered within `boundMs`; a hang comes back as status 0. */
async function chatWithin(key: string, model: string, boundMs: number, extra: Record<string, unknown> = {}) {
  try {
    const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], ...extra }),
      signal: AbortSignal.timeout(boundMs),
    });
    return { status: res.status, json: (await res.json().catch(() => undefined)) as any };
  } catch {
    return { status: 0, json: undefined };
  }
}

async function secondToken(user: ApiSession, name: string): Promise<string> {
  const created = await user.call("POST", "/api/token/", { name, remain_quota: 0, expired_time: -1, unlimited_quota: true });
  if (!created.json.success) throw new Error(`token: ${created.json.message}`);
  const token = ((await user.call("GET", "/api/token/")).json.data as { id: number; name: string }[]).find((t) => t.name === name)!;
  return (await user.call("GET", `/api/token/${token.id}/key`)).json.data.key as string;
}

/** An admin raising a balance outside the relay: the row, then the change broadcast every node drains its slices on. */
async function raiseUserQuota(userId: number, quota: number) {
  await db!.query("update users set quota = $2 where id = $1", [userId, quota]);
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) return;
  const redis = new Redis(redisUrl);
  await redis.publish("switchyard:user-changed", `test|${userId}`);
  await redis.quit();
}

describe("leases under concurrency", () => {
  it("item 9: quota for 10 calls, two unlimited tokens, 50 concurrent calls on each: every call is answered, and both tokens work after a refill", async () => {
    const model = uniqueModel("lease");
    await mergeOption(root, "ModelPrice", { [model]: 0.002 }); // 1000 quota per call
    await createChannel(root, { base_url: upstream.url, models: model });
    const { user, key } = await userWithToken(10 * 1000);
    const other = await secondToken(user, "second");

    const bound = 20_000;
    const started = Date.now();
    // Fifty callers per token, arriving over 1.5 s: some find the other token's slice busy, some idle, some on its way back.
    const arrive = (k: string) => new Promise<void>((r) => setTimeout(r, Math.random() * 1500)).then(() => chatWithin(k, model, bound));
    const results = await Promise.all([...Array.from({ length: 50 }, () => arrive(key)), ...Array.from({ length: 50 }, () => arrive(other))]);
    const hung = results.filter((r) => r.status === 0).length;
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 403 && String(r.json?.error?.message).includes("用户额度不足")).length;
    console.log(`item 9 burst: ${ok} ok, ${refused} refused, ${hung} unanswered, ${Date.now() - started} ms`);
    expect(hung).toBe(0);
    expect(ok).toBe(10);
    expect(refused).toBe(90);
    const self = await quotaOf(user);
    expect(self.quota).toBe(0);
    expect(self.used_quota).toBe(10 * 1000);

    // Afterwards neither token is stuck: each call is answered at once, refused for want of balance.
    for (const k of [key, other]) {
      const after = await chatWithin(k, model, 5_000);
      expect(after.status).toBe(403);
      expect(after.json.error.message).toContain("用户额度不足");
    }

    if (!db) return; // on embedded PGlite the database lives inside the server: no balance edit from outside
    await billingWritten();
    await raiseUserQuota(user.userId, 5 * 1000);
    await new Promise((r) => setTimeout(r, 300));
    for (const k of [key, other]) expect((await chatWithin(k, model, 5_000)).status).toBe(200);
    await billingWritten();
    expect((await quotaOf(user)).quota).toBe(3 * 1000);
  });
});
