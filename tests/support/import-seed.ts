import type { Source, Variant } from "./import-sources";
import { goBcrypt, randomKey } from "./import-sources";

/** What the seeded source holds, for the assertions. */
export type Seeded = {
  passwords: Record<string, string>;
  accessToken: string;
  keys: { unlimited: string; limited: string; expired: string; disabledUser: string; deletedUser: string };
  codes: { unused: string; used: string };
  upstreamKey: string;
};

const NOW = () => Math.floor(Date.now() / 1000);

/**
 * Realistic rows as each fork writes them: a root and a user who sign in with their old
 * passwords, a disabled and a deleted user, tokens (unlimited with a negative remainder, model
 * limits, expired, an orphan), a channel to the test upstream and one of a type Switchyard lacks,
 * ratio options, and an unused and a used redemption code.
 */
export async function seedSource(db: Source, variant: Variant, upstreamUrl: string): Promise<Seeded> {
  const oneApi = variant === "one-api";
  const passwords = { root: "old-root-pass", alice: "alice-pass-1", bob: "bob-pass-22", carol: "carol-pass-3" };
  const accessToken = randomKey(32);
  const keys = {
    unlimited: randomKey(),
    limited: randomKey(),
    expired: randomKey(),
    disabledUser: randomKey(),
    deletedUser: randomKey(),
  };
  const codes = { unused: randomKey(32).toLowerCase(), used: randomKey(32).toLowerCase() };
  const upstreamKey = `sk-upstream-${randomKey(12)}`;

  // users: one-api has no soft delete (status 3 is deleted) and no invite counters
  const userCols = oneApi
    ? "`id`,`username`,`password`,`display_name`,`role`,`status`,`email`,`access_token`,`quota`,`used_quota`,`request_count`,`group`,`aff_code`,`inviter_id`"
    : "`id`,`username`,`password`,`display_name`,`role`,`status`,`email`,`access_token`,`quota`,`used_quota`,`request_count`,`group`,`aff_code`,`inviter_id`,`aff_count`,`deleted_at`";
  const user = (
    id: number,
    name: string,
    role: number,
    status: number,
    quota: number,
    token: string | null,
    deleted: boolean,
  ) => {
    const base = [
      id,
      name,
      goBcrypt(passwords[name as keyof typeof passwords]),
      name.toUpperCase(),
      role,
      oneApi && deleted ? 3 : status,
      `${name}@example.com`,
      token,
      quota,
      1234,
      7,
      "default",
      `af${id}`,
      id === 2 ? 1 : 0,
    ];
    return oneApi ? base : [...base, id === 1 ? 1 : 0, deleted ? "2025-01-02 03:04:05" : null];
  };
  const marks = (n: number) => Array(n).fill("?").join(",");
  const rows = [
    user(1, "root", 100, 1, 100_000_000, null, false),
    user(2, "alice", 1, 1, 5_000_000, accessToken, false),
    user(3, "bob", 1, 2, 1_000_000, null, false),
    user(4, "carol", 1, 1, 1_000_000, null, true),
  ];
  for (const r of rows) await db.exec(`insert into users (${userCols}) values (${marks(r.length)})`, r);

  const tokenCols = oneApi
    ? "`id`,`user_id`,`key`,`status`,`name`,`created_time`,`accessed_time`,`expired_time`,`remain_quota`,`unlimited_quota`,`used_quota`,`models`,`subnet`"
    : "`id`,`user_id`,`key`,`status`,`name`,`created_time`,`accessed_time`,`expired_time`,`remain_quota`,`unlimited_quota`,`model_limits_enabled`,`model_limits`,`allow_ips`,`used_quota`,`group`";
  const token = (
    id: number,
    userId: number,
    key: string,
    expired: number,
    remain: number,
    unlimited: boolean,
    models: string,
  ) =>
    oneApi
      ? [
          id,
          userId,
          key,
          1,
          `t${id}`,
          NOW() - 86400,
          NOW() - 3600,
          expired,
          remain,
          unlimited ? 1 : 0,
          10,
          models || null,
          "",
        ]
      : [
          id,
          userId,
          key,
          1,
          `t${id}`,
          NOW() - 86400,
          NOW() - 3600,
          expired,
          remain,
          unlimited ? 1 : 0,
          models ? 1 : 0,
          models,
          "",
          10,
          "",
        ];
  const tokens = [
    token(1, 2, keys.unlimited, -1, -5000, true, ""),
    token(2, 2, keys.limited, -1, 2_000_000, false, "gpt-4o-mini"),
    token(3, 2, keys.expired, NOW() - 3600, 2_000_000, false, ""),
    token(4, 3, keys.disabledUser, -1, 0, true, ""),
    token(5, 4, keys.deletedUser, -1, 0, true, ""),
    token(6, 99, randomKey(), -1, 0, true, ""),
  ];
  for (const r of tokens) await db.exec(`insert into tokens (${tokenCols}) values (${marks(r.length)})`, r);

  // channel 1: OpenAI to the test upstream; channel 2: a type Switchyard has no counterpart for
  const otherType = oneApi ? 38 : 60;
  await db.exec(
    "insert into channels (`id`,`type`,`key`,`status`,`name`,`weight`,`created_time`,`base_url`,`models`,`group`,`priority`,`model_mapping`) values (?,?,?,?,?,?,?,?,?,?,?,?)",
    [1, 1, upstreamKey, 1, "old-openai", 1, NOW(), upstreamUrl, "gpt-4o-mini,gpt-4o", "default", 0, ""],
  );
  await db.exec(
    "insert into channels (`id`,`type`,`key`,`status`,`name`,`weight`,`created_time`,`base_url`,`models`,`group`,`priority`,`model_mapping`) values (?,?,?,?,?,?,?,?,?,?,?,?)",
    [2, otherType, "other-key", 1, "exotic", 0, NOW(), "", "gpt-4o-mini", "default", 0, ""],
  );

  const options: [string, string][] = [
    ["ModelRatio", JSON.stringify({ "gpt-4o-mini": 7.5, "gpt-4o": 1.25 })],
    ["GroupRatio", JSON.stringify({ default: 1, vip: 0.5 })],
    ["RetryTimes", "not-a-number"],
    ["SomeKeyOnlyTheyHad", "x"],
    ["SystemName", "Old Gateway"],
  ];
  for (const [key, value] of options) await db.exec("insert into options (`key`,`value`) values (?,?)", [key, value]);

  const codeCols = oneApi
    ? "`id`,`user_id`,`key`,`status`,`name`,`quota`,`created_time`,`redeemed_time`"
    : "`id`,`user_id`,`key`,`status`,`name`,`quota`,`created_time`,`redeemed_time`,`used_user_id`";
  const code = (id: number, key: string, status: number) =>
    oneApi
      ? [id, 1, key, status, `c${id}`, 300_000, NOW(), status === 3 ? NOW() : 0]
      : [id, 1, key, status, `c${id}`, 300_000, NOW(), status === 3 ? NOW() : 0, status === 3 ? 2 : 0];
  for (const r of [code(1, codes.unused, 1), code(2, codes.used, 3)])
    await db.exec(`insert into redemptions (${codeCols}) values (${marks(r.length)})`, r);

  return { passwords, accessToken, keys, codes, upstreamKey };
}
