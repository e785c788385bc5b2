import { sql, type Kysely } from "kysely";
import type { DB, User } from "../../../db/schema";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { logQuotaText } from "~/domain/logs/quota-text.server";
import { getDb } from "~/utils/db.server";
import { hashLookupKey, randomAlphanumeric } from "~/utils/secrets.server";
import { options } from "../options/store.server";
import { DEFAULT_ROOT_PASSWORD, hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords.server";
import { ROLE_ROOT, ROLE_USER, USER_STATUS_BANNED } from "./roles";

export type PublicUser = ReturnType<typeof toPublicUser>;

/**
 * The reference's User JSON, minus secrets: password is always "", and access_token is never
 * sent back (the reference leaks it to admins, which lets an admin act as root).
 */
export function toPublicUser(user: User) {
  return {
    id: user.id,
    username: user.username,
    password: "",
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    email: user.email,
    github_id: user.github_id,
    wechat_id: user.wechat_id,
    telegram_id: user.telegram_id,
    verification_code: "",
    access_token: null as string | null,
    quota: user.quota,
    used_quota: user.used_quota,
    request_count: user.request_count,
    // Quota this user's delivered calls cost beyond what was left to charge (decision 009).
    shortfall_quota: user.shortfall_quota,
    group: user.group,
    aff_code: user.aff_code ?? "",
    aff_count: user.aff_count,
    aff_quota: user.aff_quota,
    aff_history_quota: user.aff_history,
    inviter_id: user.inviter_id,
    DeletedAt: user.deleted_at ? user.deleted_at.toISOString() : null,
  };
}

/**
 * A deleted account's new name, `<name>#deleted-<id>`, which frees the old one. Registration
 * refuses `#`, so no live account can hold it; one registered before that rule (it made its
 * victim undeletable) is stepped around with the deletion time appended.
 */
export const deletedUsername = sql<string>`case
  when exists (select 1 from users taken where taken.username = users.username || '#deleted-' || users.id::text)
  then users.username || '#deleted-' || users.id::text || '-' || (extract(epoch from clock_timestamp()) * 1000000)::bigint::text
  else users.username || '#deleted-' || users.id::text end`;

/** Login accepts the username or the email, as the reference does. */
export async function verifyCredentials(login: string, password: string): Promise<User | undefined> {
  const db = await getDb();
  const user = await db
    .selectFrom("users")
    .selectAll()
    .where("deleted_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("username", "=", login),
        eb.and([eb("email", "<>", ""), eb(sql`lower(email)`, "=", login.toLowerCase())]),
      ]),
    )
    .orderBy(sql`username = ${login}`, "desc")
    .executeTakeFirst();
  if (!user) return verifyAgainstDummy(password).then(() => undefined);
  if (!(await verifyPassword(password, user.password_hash))) return undefined;
  if (user.status === USER_STATUS_BANNED) return undefined;
  return user;
}

export async function isUsernameTaken(username: string): Promise<boolean> {
  const db = await getDb();
  const row = await db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirst();
  return Boolean(row);
}

async function uniqueAffCode(): Promise<string> {
  const db = await getDb();
  for (;;) {
    const code = randomAlphanumeric(4);
    const clash = await db.selectFrom("users").select("id").where("aff_code", "=", code).executeTakeFirst();
    if (!clash) return code;
  }
}

export type NewAccount = {
  username: string;
  password: string;
  displayName?: string;
  email?: string;
  role?: number;
  quota?: number;
  inviterId?: number;
};

/**
 * Inserts an account through `executor` (a transaction when the insert is part of a larger
 * change). The slow or separate work — hashing, drawing a free invite code — is done by the
 * caller first: inside a transaction on PGlite's single connection, a query outside it would wait
 * for the transaction forever.
 */
async function insertUser(
  executor: Kysely<DB>,
  input: NewAccount,
  prepared: { passwordHash: string; affCode: string },
): Promise<User> {
  return executor
    .insertInto("users")
    .values({
      username: input.username,
      password_hash: prepared.passwordHash,
      display_name: input.displayName || input.username,
      email: input.email ?? "",
      role: input.role ?? ROLE_USER,
      quota: input.quota ?? 0,
      inviter_id: input.inviterId ?? 0,
      aff_code: prepared.affCode,
      access_token_hash: null,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const prepareAccount = async (password: string) => ({
  passwordHash: await hashPassword(password),
  affCode: await uniqueAffCode(),
});

export async function createUser(input: NewAccount): Promise<User> {
  return insertUser(await getDb(), input, await prepareAccount(input.password));
}

/**
 * Registration (decision 015): the account with the new-user quota, and, when the invite code
 * names a live account, the invitee's reward on the new account and the inviter's count and
 * earnings, plus the reference's system logs of each reward — all in one transaction, so a
 * registration that fails (a name taken in a race) rewards nobody and one that succeeds rewards
 * each side exactly once. The inviter's row is updated first and by its code, so an inviter
 * deleted meanwhile matches nothing: the registration succeeds without the invite. Unlike the
 * reference, the invite is counted (邀请人数) even while QuotaForInviter is 0.
 */
export async function registerUser(input: {
  username: string;
  password: string;
  email?: string;
  affCode?: string;
}): Promise<User> {
  const db = await getDb();
  const forNewUser = options.int("QuotaForNewUser");
  const forInvitee = options.int("QuotaForInvitee");
  const forInviter = options.int("QuotaForInviter");
  const now = Math.floor(Date.now() / 1000);
  const prepared = await prepareAccount(input.password);
  return db.transaction().execute(async (trx) => {
    const inviter = input.affCode
      ? await trx
          .updateTable("users")
          .set((eb) => ({
            aff_count: eb("aff_count", "+", 1),
            aff_quota: eb("aff_quota", "+", forInviter),
            aff_history: eb("aff_history", "+", forInviter),
          }))
          .where("aff_code", "=", input.affCode)
          .where("deleted_at", "is", null)
          .returning(["id", "username"])
          .executeTakeFirst()
      : undefined;
    const user = await insertUser(
      trx,
      {
        username: input.username,
        password: input.password,
        email: input.email,
        quota: forNewUser + (inviter ? forInvitee : 0),
        inviterId: inviter?.id ?? 0,
      },
      prepared,
    );
    const rewards: { to: { id: number; username: string }; content: string }[] = [];
    if (forNewUser > 0) rewards.push({ to: user, content: `新用户注册赠送 ${logQuotaText(forNewUser)}` });
    if (inviter && forInvitee > 0) rewards.push({ to: user, content: `使用邀请码赠送 ${logQuotaText(forInvitee)}` });
    if (inviter && forInviter > 0) rewards.push({ to: inviter, content: `邀请用户赠送 ${logQuotaText(forInviter)}` });
    if (rewards.length > 0) {
      await trx
        .insertInto("logs")
        .values(
          rewards.map(({ to, content }) => ({
            created_at: now,
            type: LOG_TYPE.system,
            content,
            user_id: to.id,
            username: to.username,
            quota: 0,
          })),
        )
        .execute();
    }
    return user;
  });
}

/** First start: a root account, password from ROOT_PASSWORD or the reference's default. */
export async function ensureRootUser(
  rootPassword: string | undefined,
): Promise<{ created: boolean; password?: string }> {
  const db = await getDb();
  const existing = await db.selectFrom("users").select("id").where("role", "=", ROLE_ROOT).executeTakeFirst();
  if (existing) return { created: false };
  const password = rootPassword ?? DEFAULT_ROOT_PASSWORD;
  await db
    .insertInto("users")
    .values({
      username: "root",
      password_hash: await hashPassword(password),
      display_name: "Root User",
      role: ROLE_ROOT,
      quota: 100_000_000,
      aff_code: await uniqueAffCode(),
      access_token_hash: null,
      deleted_at: null,
    })
    .onConflict((oc) => oc.column("username").doNothing())
    .execute();
  return { created: true, password };
}

export async function findUserByAccessToken(token: string): Promise<User | undefined> {
  const db = await getDb();
  return db
    .selectFrom("users")
    .selectAll()
    .where("access_token_hash", "=", hashLookupKey(token))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** A new system access token; only its hash is stored, so it is shown once. */
export async function regenerateAccessToken(userId: number): Promise<string> {
  const db = await getDb();
  const token = randomAlphanumeric(32);
  await db
    .updateTable("users")
    .set({ access_token_hash: hashLookupKey(token) })
    .where("id", "=", userId)
    .execute();
  return token;
}

export async function isDefaultRootPassword(user: User): Promise<boolean> {
  return (
    user.role === ROLE_ROOT &&
    user.username === "root" &&
    (await verifyPassword(DEFAULT_ROOT_PASSWORD, user.password_hash))
  );
}
