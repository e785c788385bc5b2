import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { startOpenAiMock } from "../mocks/openai-upstream";
import { codeIn, SMTP_PASSWORD, SMTP_USER, startTestSmtp, type TestSmtp } from "../mocks/smtp-server";
import { startTestRedis } from "../support/redis-server";
import { startServer, type StartedServer } from "../support/server";
import { call, channelAndKey, eventually, signIn, sleep, stoppedAfterAll, type Node } from "../support/standalone";

/**
 * Schedules, for real with short intervals (decision 029): the auto-test disables a
 * channel broken at its mock and re-enables it once it recovers, mailing root each time; logs
 * older than LogRetentionDays are gone after the retention job, newer ones kept; the quota
 * reminder goes once per crossing; and with external workers (WORKERS=off + `npm run worker`)
 * the housekeeping jobs still run.
 */
const kind = inject("dbKind");
const { servers, upstreams, redises } = stoppedAfterAll();
let smtp: TestSmtp;
let server: StartedServer;
let root: Node;
const ROOT_EMAIL = "root@switchyard.test";

const setOption = async (node: Node, key: string, value: string) => {
  const res = await call(node.baseUrl, "/api/option/", { method: "PUT", headers: node.auth, body: { key, value } });
  if (!res.json?.success) throw new Error(`option ${key}: ${res.text}`);
};

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer({ kind, env: { SCHEDULE_TICK_SECONDS: "1" } });
  servers.push(server);
  root = await signIn(server.baseUrl);
  for (const [key, value] of [
    ["SMTPServer", "127.0.0.1"],
    ["SMTPPort", String(smtp.port)],
    ["SMTPAccount", SMTP_USER],
    ["SMTPToken", SMTP_PASSWORD],
    ["ServerAddress", server.baseUrl],
  ] as const)
    await setOption(root, key, value);
  // Root's address, bound the way a user binds one (a code by mail).
  expect((await call(server.baseUrl, `/api/verification?email=${encodeURIComponent(ROOT_EMAIL)}`)).json?.success).toBe(
    true,
  );
  const code = codeIn(await smtp.nextMailTo(ROOT_EMAIL));
  expect(
    (
      await call(server.baseUrl, `/api/oauth/email/bind?email=${encodeURIComponent(ROOT_EMAIL)}&code=${code}`, {
        headers: root.auth,
      })
    ).json?.success,
  ).toBe(true);
}, 120_000);

afterAll(async () => {
  await smtp?.close();
});

const channelStatus = async (id: number) =>
  (await call(server.baseUrl, `/api/channel/${id}`, { headers: root.auth })).json.data.status as number;

describe("channel auto-test schedule", () => {
  it("disables a channel its mock breaks, re-enables it when the mock recovers, mails root both times and shows the run on the channel page", async () => {
    const upstream = await startOpenAiMock();
    upstreams.push(upstream);
    await channelAndKey(root, upstream.url);
    const listed = (await call(server.baseUrl, "/api/channel/?p=0&page_size=100", { headers: root.auth })).json.data;
    const channels = (Array.isArray(listed) ? listed : listed.items) as { id: number; base_url: string }[];
    const channelId = channels.find((c) => c.base_url === upstream.url)!.id;
    await setOption(root, "AutomaticDisableChannelEnabled", "true");
    await setOption(root, "AutomaticEnableChannelEnabled", "true");
    upstream.fault = {
      kind: "status",
      status: 401,
      body: {
        error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
      },
    };
    // Every 3 s (0.05 minutes): nobody presses 测试所有通道.
    await setOption(root, "ChannelTestFrequency", "0.05");
    try {
      expect(await eventually(async () => (await channelStatus(channelId)) === 3, 20_000, 250)).toBe(true);
      const disabledMail = await smtp.nextMailTo(ROOT_EMAIL, 15_000);
      expect(disabledMail.subject).toContain("禁用 1 个");
      expect(disabledMail.text).toContain(`#${channelId}`);

      upstream.fault = undefined;
      expect(await eventually(async () => (await channelStatus(channelId)) === 1, 20_000, 250)).toBe(true);
      const enabledMail = await smtp.nextMailTo(ROOT_EMAIL, 15_000);
      expect(enabledMail.subject).toContain("启用 1 个");
      expect(enabledMail.text).toContain(`（#${channelId}）已被启用`);

      // A manually disabled channel stays disabled however often the schedule passes.
      expect(
        (
          await call(server.baseUrl, "/api/channel/", {
            method: "PUT",
            headers: root.auth,
            body: { id: channelId, status: 2 },
          })
        ).json?.success,
      ).toBe(true);
      const tested = upstream.requests.length;
      expect(await eventually(() => upstream.requests.length > tested, 15_000, 250)).toBe(true);
      await sleep(500);
      expect(await channelStatus(channelId)).toBe(2);

      const page = await (await fetch(`${server.baseUrl}/channel`, { headers: { Cookie: root.auth.Cookie! } })).text();
      const row = /data-testid="schedule-channels.auto-test"[^]*?<\/tr>/.exec(page)?.[0] ?? "";
      expect(row).toContain("自动测试所有通道");
      expect(row).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      expect(row).not.toContain("未启用");
    } finally {
      await setOption(root, "ChannelTestFrequency", "0");
    }
  }, 90_000);
});

/** A new user with an address, and a way for root to set their quota. */
async function registeredUser(prefix: string) {
  const username = `${prefix}${Math.random().toString(36).slice(2, 8)}`;
  const email = `${username}@example.test`;
  const password = "password123";
  const registered = await call(server.baseUrl, "/api/user/register", { method: "POST", body: { username, password } });
  expect(registered.json?.success).toBe(true);
  const found = (await call(server.baseUrl, `/api/user/search?keyword=${username}`, { headers: root.auth })).json.data;
  const id = (Array.isArray(found) ? found : found.items)[0].id as number;
  const edit = async (quota: number) => {
    const res = await call(server.baseUrl, "/api/user/", {
      method: "PUT",
      headers: root.auth,
      body: { id, username, email, quota },
    });
    expect(res.json?.success, res.text).toBe(true);
  };
  return { username, email, password, edit };
}

describe("quota reminder", () => {
  it("mails a user once when the balance falls under QuotaRemindThreshold, again after it went back above and fell again", async () => {
    const { email, edit } = await registeredUser("low");
    await setOption(root, "QuotaRemindThreshold", "1000");
    await edit(5000);
    await sleep(2_500); // armed by a sweep
    await edit(400);
    const first = await smtp.nextMailTo(email, 10_000);
    expect(first.subject).toContain("额度即将用尽");
    await edit(300);
    await sleep(3_000);
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes(email))).toHaveLength(0);
    await edit(2000);
    await sleep(2_500);
    await edit(10);
    await smtp.nextMailTo(email, 10_000);
  }, 60_000);

  it("mails in the language the user signed in with, and in the one they switched to afterwards", async () => {
    const { username, email, password, edit } = await registeredUser("lang");
    // Signs in from an English browser, then leaves: the reminder comes later, with no request to ask.
    const login = await fetch(`${server.baseUrl}/api/user/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": "en-US,en;q=0.9" },
      body: JSON.stringify({ username, password }),
    });
    expect(login.status).toBe(200);
    const session = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    await setOption(root, "QuotaRemindThreshold", "1000");
    await edit(5000);
    await sleep(2_500); // armed by a sweep
    await edit(400);
    const english = await smtp.nextMailTo(email, 10_000);
    expect(english.subject).toContain("quota reminder: your quota is nearly used up");
    expect(`${english.subject}${english.text}`).not.toMatch(/[\u3400-\u9fff]/);

    // The switch on the console, pressed while signed in, is kept on the account.
    const switched = await fetch(`${server.baseUrl}/lang?to=zh&back=/`, {
      headers: { Cookie: session },
      redirect: "manual",
    });
    expect(switched.status).toBe(302);
    await edit(2000);
    await sleep(2_500); // re-armed
    await edit(10);
    const chinese = await smtp.nextMailTo(email, 10_000);
    expect(chinese.subject).toContain("额度提醒：您的额度即将用尽");
  }, 60_000);
});

describe("log retention", () => {
  it.skipIf(kind !== "postgres")(
    "logs older than LogRetentionDays are gone after the job runs (a whole month dropped), newer ones kept",
    async () => {
      const db = new pg.Client({ connectionString: server.databaseUrl });
      await db.connect();
      try {
        const now = Math.floor(Date.now() / 1000);
        const day = 86_400;
        // A past month of its own partition (as months the server created when they were current).
        const old = new Date((now - 80 * day) * 1000);
        const from = Date.UTC(old.getUTCFullYear(), old.getUTCMonth(), 1) / 1000;
        const to = Date.UTC(old.getUTCFullYear(), old.getUTCMonth() + 1, 1) / 1000;
        const name = `logs_y${old.getUTCFullYear()}m${String(old.getUTCMonth() + 1).padStart(2, "0")}`;
        await db.query(`create table ${name} partition of logs for values from (${from}) to (${to})`);
        await db.query(
          `insert into logs (created_at, type, content) select $1::int8 + g, 2, 'old' from generate_series(0, 999) g`,
          [from],
        );
        await db.query(
          `insert into logs (created_at, type, content) values ($1, 2, 'edge-old'), ($2, 2, 'kept'), ($3, 2, 'kept')`,
          [now - 40 * day, now - 20 * day, now - 60],
        );
        await setOption(root, "LogRetentionDays", "30");
        try {
          expect(
            await eventually(
              async () =>
                Number(
                  (await db.query("select count(*) from logs where content in ('old', 'edge-old')")).rows[0].count,
                ) === 0,
              15_000,
              250,
            ),
          ).toBe(true);
          expect(Number((await db.query("select count(*) from logs where content = 'kept'")).rows[0].count)).toBe(2);
          expect((await db.query("select 1 from pg_class where relname = $1", [name])).rowCount).toBe(0);
        } finally {
          await setOption(root, "LogRetentionDays", "0");
        }
      } finally {
        await db.end();
      }
    },
    60_000,
  );
});

describe("external workers", () => {
  // A worker process shares the database with the web process: PostgreSQL (PGlite belongs to one process).
  it.skipIf(kind !== "postgres")(
    "with WORKERS=off and `npm run worker`, lease recovery, session cleanup and the auto-test schedule still run (recorded for the channel page)",
    async () => {
      const redis = await startTestRedis();
      redises.push(redis);
      const node = await startServer({
        kind,
        env: { REDIS_URL: redis.url(0), WORKERS: "off", RECOVERY_SWEEP_SECONDS: "5", SCHEDULE_TICK_SECONDS: "1" },
        worker: true,
      });
      servers.push(node);
      const admin = await signIn(node.baseUrl);
      await setOption(admin, "ChannelTestFrequency", "0.05");
      const upstream = await startOpenAiMock();
      upstreams.push(upstream);
      await channelAndKey(admin, upstream.url);
      const row = async (name: string) => {
        const page = await (await fetch(`${node.baseUrl}/channel`, { headers: { Cookie: admin.auth.Cookie! } })).text();
        return new RegExp(`data-testid="schedule-${name.replace(/\./g, "\\.")}"[^]*?</tr>`).exec(page)?.[0] ?? "";
      };
      // A last-run time followed by its outcome cell.
      const ran = async (name: string) =>
        /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}<\/td><td[^>]*>(成功|运行中)/.test(await row(name));
      expect(await eventually(() => ran("quota.recover-stopped-nodes"), 30_000, 500)).toBe(true);
      expect(await eventually(() => ran("sessions.delete-expired"), 30_000, 500)).toBe(true);
      expect(await eventually(() => upstream.requests.length > 0, 30_000, 500)).toBe(true);
      expect(await eventually(() => ran("channels.auto-test"), 30_000, 500)).toBe(true);
    },
    120_000,
  );
});
