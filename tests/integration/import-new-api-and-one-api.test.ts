import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import {
  mariaDbSource,
  postgresSource,
  runImportCli,
  sqliteSource,
  type Source,
  type Variant,
} from "../support/import-sources";
import { seedSource, type Seeded } from "../support/import-seed";
import { createScratchDatabase, startServer, type StartedServer } from "../support/server";
import { call, chat, signIn } from "../support/standalone";

/**
 * `npm run import`: a new-api (v0.3.0.2 and later) or one-api database, as a SQLite file and on
 * a real MariaDB server, moved into a fresh Switchyard database by the built CLI; then the
 * gateway started on it is checked from outside: old passwords, old keys, old codes.
 */
const kind = inject("dbKind") as "pglite" | "postgres";
const CRYPTO_SECRET = "import-test-crypto-secret";
// Each CLI run opens (and the first creates) the target database; the embedded one takes seconds.

type Target = { dataDir: string; databaseUrl?: string; cryptoSecret: string; drop(): Promise<void> };

async function freshTarget(): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "import-target-"));
  const scratch = kind === "postgres" ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
  return {
    dataDir,
    databaseUrl: scratch?.url,
    cryptoSecret: CRYPTO_SECRET,
    drop: async () => {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const CASES: { variant: Variant; dialect: "sqlite" | "mariadb" | "postgres"; fork: string }[] = [
  { variant: "new-api-v0.3.0.2", dialect: "sqlite", fork: "new-api v0.3.0.x" },
  {
    variant: "new-api-later",
    dialect: "mariadb",
    fork: "new-api later than v0.3.0.2 (channels.tag, users.setting, logs.group",
  },
  { variant: "one-api", dialect: "sqlite", fork: "one-api" },
  { variant: "one-api", dialect: "mariadb", fork: "one-api" },
  // A source on PostgreSQL needs a server: where the suite has one (DATABASE_URL), it is read too.
  ...(process.env.DATABASE_URL
    ? [{ variant: "new-api-v0.3.0.2" as const, dialect: "postgres" as const, fork: "new-api v0.3.0.x" }]
    : []),
];

describe.each(CASES)("import $variant from $dialect", ({ variant, dialect, fork }) => {
  let upstream: MockUpstream;
  let source: Source & { drop(): Promise<void> };
  let seeded: Seeded;
  let target: Target;
  let server: StartedServer | undefined;

  beforeAll(async () => {
    upstream = await startOpenAiMock();
    source =
      dialect === "sqlite"
        ? await sqliteSource(variant)
        : dialect === "mariadb"
          ? await mariaDbSource(variant)
          : await postgresSource(process.env.DATABASE_URL!);
    seeded = await seedSource(source, variant, upstream.url);
    await source.close();
    target = await freshTarget();
  });

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
    await source?.drop();
    await target?.drop();
  });

  it(
    "a dry run reports what it found and every clamp, drop and refusal, and writes nothing",
    { timeout: 240_000 },
    async () => {
      const first = await runImportCli([source.source], target);
      expect(first.code, first.stderr).toBe(0);
      const out = first.stdout;
      expect(out).toContain(`Found: ${fork}`);
      expect(out).toMatch(/== users: found 4, would write 4/);
      expect(out).toMatch(/== tokens: found 6, would write 5/);
      expect(out).toMatch(/clamped #1: remain_quota -5000 is negative \(an unlimited token\): set to 0/);
      expect(out).toMatch(/dropped #6: belongs to user 99, who is not in the source/);
      expect(out).toMatch(/changed #2: .*type (38|60).*imported disabled as 未知类型/);
      expect(out).toMatch(/refused #RetryTimes: 配置项 RetryTimes 的值必须是整数/);
      expect(out).toContain("keys Switchyard does not know, not imported: SomeKeyOnlyTheyHad");
      expect(out).toContain("Dry run: nothing was written");
      // A second dry run finds nothing present: the first wrote nothing.
      const second = await runImportCli([source.source], target);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).not.toContain("present");
      expect(second.stdout).toMatch(/== users: found 4, would write 4/);
    },
  );

  it("--apply writes it all, and a second --apply adds nothing", { timeout: 240_000 }, async () => {
    const first = await runImportCli([source.source, "--apply"], target);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/== users: found 4, written 4/);
    expect(first.stdout).toMatch(/== tokens: found 6, written 5/);
    expect(first.stdout).toMatch(/== channels: found 2, written 2/);
    expect(first.stdout).toMatch(/== redemptions: found 2, written 2/);
    const again = await runImportCli([source.source, "--apply"], target);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/== users: found 4, written 0, .*present 4/);
    expect(again.stdout).toMatch(/== tokens: found 6, written 0, .*present 5/);
    expect(again.stdout).toMatch(/== options: found 5, written 0, .*present 3/);
  });

  it(
    "the gateway on the imported database: old passwords, keys, limits, refusals, options and codes",
    { timeout: 240_000 },
    async () => {
      server = await startServer({
        kind,
        storage: { dataDir: target.dataDir, databaseUrl: target.databaseUrl },
        env: { CRYPTO_SECRET },
      });
      const base = server.baseUrl;

      // Old passwords sign in; the disabled and the deleted account do not.
      const alice = await signIn(base, "alice", seeded.passwords.alice);
      const root = await signIn(base, "root", seeded.passwords.root);
      for (const [name, password] of [
        ["bob", seeded.passwords.bob],
        ["carol", seeded.passwords.carol],
        ["root", "123456"],
      ]) {
        const res = await call(base, "/api/user/login", { method: "POST", body: { username: name, password } });
        expect(res.json?.success, `${name}: ${res.text}`).toBe(false);
      }
      // The system access token keeps working.
      const self = await call(base, "/api/user/self", {
        headers: { Authorization: seeded.accessToken, "New-Api-User": "2" },
      });
      expect(self.json?.data?.username, self.text).toBe("alice");

      // The old sk- key relays through the imported channel with that channel's upstream key.
      const relayed = await chat(base, `sk-${seeded.keys.unlimited}`);
      expect(relayed.status, await relayed.clone().text()).toBe(200);
      expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${seeded.upstreamKey}`);
      // Model limits hold; expiry holds; the disabled and deleted users' keys are refused.
      expect((await chat(base, `sk-${seeded.keys.limited}`, "gpt-4o-mini")).status).toBe(200);
      expect((await chat(base, `sk-${seeded.keys.limited}`, "gpt-4o")).status).not.toBe(200);
      expect((await chat(base, `sk-${seeded.keys.expired}`)).status).toBe(401);
      expect((await chat(base, `sk-${seeded.keys.disabledUser}`)).status).not.toBe(200);
      expect((await chat(base, `sk-${seeded.keys.deletedUser}`)).status).not.toBe(200);

      // Options and ratios apply.
      const pricing = await call(base, "/api/pricing");
      const mini = (pricing.json.data as { model_name: string; model_ratio: number }[]).find(
        (m) => m.model_name === "gpt-4o-mini",
      );
      expect(mini?.model_ratio).toBe(7.5);
      expect(pricing.json.group_ratio).toMatchObject({ vip: 0.5 });
      const status = await call(base, "/api/status");
      expect(status.json?.data?.system_name).toBe("Old Gateway");

      // The channel of a type Switchyard lacks came across disabled, with a note.
      const exotic = await call(base, "/api/channel/2", { headers: root.auth });
      expect(exotic.json?.data).toMatchObject({ type: 0, status: 2 });
      expect(exotic.json.data.other_info).toContain("import_note");

      // The old unused code redeems once; the used one stays used.
      const redeem = (key: string) =>
        call(base, "/api/user/topup", { method: "POST", headers: alice.auth, body: { key } });
      expect((await redeem(seeded.codes.unused)).json).toMatchObject({ success: true, data: 300_000 });
      expect((await redeem(seeded.codes.unused)).json?.success).toBe(false);
      expect((await redeem(seeded.codes.used)).json?.success).toBe(false);

      // New rows get ids past the imported ones.
      const created = await call(base, "/api/token/", {
        method: "POST",
        headers: alice.auth,
        body: { name: "after-import", unlimited_quota: true, remain_quota: 0, expired_time: -1 },
      });
      expect(created.json?.success, created.text).toBe(true);
      const list = await call(base, "/api/token/?p=0&size=100", { headers: alice.auth });
      const fresh = (list.json.data.items ?? list.json.data).find((t: { name: string }) => t.name === "after-import");
      // The highest imported token id is 5 (6 was an orphan, dropped).
      expect(fresh.id).toBeGreaterThan(5);
    },
  );
});

describe("import into a deployment already in use", () => {
  it("refuses with a message that says so and changes nothing", { timeout: 240_000 }, async () => {
    const target = await freshTarget();
    const source = await sqliteSource("new-api-v0.3.0.2");
    const upstream = await startOpenAiMock();
    try {
      await seedSource(source, "new-api-v0.3.0.2", upstream.url);
      await source.close();
      // A first start creates the root account: the target now has a user.
      const server = await startServer({
        kind,
        storage: { dataDir: target.dataDir, databaseUrl: target.databaseUrl },
        env: { CRYPTO_SECRET },
      });
      await server.stop();
      const refused = await runImportCli([source.source, "--apply"], target);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("The target database already has users");
      expect(refused.stderr).toContain("Nothing was changed");
      const again = await startServer({
        kind,
        storage: { dataDir: target.dataDir, databaseUrl: target.databaseUrl },
        env: { CRYPTO_SECRET },
      });
      try {
        // Still only the first start's root: alice was not imported, root kept its password.
        const alice = await call(again.baseUrl, "/api/user/login", {
          method: "POST",
          body: { username: "alice", password: "alice-pass-1" },
        });
        expect(alice.json?.success).toBe(false);
        await signIn(again.baseUrl, "root", "123456");
      } finally {
        await again.stop();
      }
    } finally {
      await upstream.close();
      await source.drop();
      await target.drop();
    }
  });
});
