import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { User } from "../../../db/schema";
import { options } from "~/domain/options/store.server";
import { USER_STATUS_BANNED } from "~/domain/users/roles";
import { isUsernameTaken, registerUser } from "~/domain/users/users.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import type { Result } from "~/utils/result";

/**
 * Accounts behind a third-party identity (GitHub numeric id, WeChat openid, Telegram id). One
 * identity belongs to one account at most (a unique index, migration 0006). Signing in finds that
 * account, or creates one when registration is open; binding attaches the identity to the
 * signed-in account. A deleted account keeps its identity, which then signs in to nothing (the
 * reference's 用户已注销), and a banned one is refused.
 */
export type Provider = "github" | "wechat" | "telegram";

const COLUMN = { github: "github_id", wechat: "wechat_id", telegram: "telegram_id" } as const;
// The reference's `github_<n>` / `wechat_<n>` names; Telegram (which the reference cannot sign
// up with) gets the short `tg_` so the name stays within the usual 12 characters longer.
const USERNAME_PREFIX: Record<Provider, string> = { github: "github_", wechat: "wechat_", telegram: "tg_" };
const DEFAULT_DISPLAY_NAME: Record<Provider, string> = {
  github: "GitHub User",
  wechat: "WeChat User",
  telegram: "Telegram User",
};

export type IdentityProfile = { displayName?: string; email?: string };
/** The account signed in to, and whether this sign-in created it. */
export type SignInResult = Result<{ user: User; created: boolean }>;

function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== "23505") return false;
  return !constraint || e.constraint === constraint || Boolean(e.message?.includes(constraint));
}

/** The account holding this identity, deleted ones included (they still own it). */
export async function findIdentityOwner(provider: Provider, externalId: string): Promise<User | undefined> {
  if (!externalId) return undefined;
  const db = await getDb();
  return db.selectFrom("users").selectAll().where(COLUMN[provider], "=", externalId).executeTakeFirst();
}

function refusalFor(user: User): string | undefined {
  if (user.deleted_at) return messages.oauthUserDeleted;
  if (user.status === USER_STATUS_BANNED) return messages.banned;
  return undefined;
}

async function nextUsername(provider: Provider, attempt: number): Promise<string> {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.max("id").as("max"))
    .executeTakeFirst();
  const next = Number(row?.max ?? 0) + 1 + attempt;
  // After a few clashes (someone registered `github_42` by hand), a random suffix ends the search.
  return attempt < 3
    ? `${USERNAME_PREFIX[provider]}${next}`
    : `${USERNAME_PREFIX[provider]}${randomBytes(3).toString("hex")}`;
}

/** An email from the provider is copied only when no other account uses it (sign-in by email must stay unambiguous). */
async function freeEmail(email: string | undefined): Promise<string | undefined> {
  if (!email || !email.includes("@")) return undefined;
  const db = await getDb();
  const taken = await db
    .selectFrom("users")
    .select("id")
    .where(sql`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
  return taken ? undefined : email;
}

async function createForIdentity(
  provider: Provider,
  externalId: string,
  profile: IdentityProfile,
  affCode: string,
): Promise<SignInResult> {
  const email = await freeEmail(profile.email);
  for (let attempt = 0; attempt < 6; attempt++) {
    const username = await nextUsername(provider, attempt);
    if (await isUsernameTaken(username)) continue;
    let user: User;
    try {
      // Registration's own path (new-user quota, invite rewards); the password is random and
      // unknown to anyone: this account signs in through its provider (or a reset email).
      user = await registerUser({
        username,
        password: randomBytes(24).toString("base64url"),
        email,
        affCode: affCode || undefined,
      });
    } catch (error) {
      if (isUniqueViolation(error)) continue;
      throw error;
    }
    const db = await getDb();
    try {
      const bound = await db
        .updateTable("users")
        .set({ [COLUMN[provider]]: externalId, display_name: profile.displayName || DEFAULT_DISPLAY_NAME[provider] })
        .where("id", "=", user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ok: true, value: { user: bound, created: true } };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The same identity signed up at the same moment elsewhere and won: this fresh, unused
      // account goes again, and the sign-in continues with the winner.
      await db.deleteFrom("users").where("id", "=", user.id).execute();
      const winner = await findIdentityOwner(provider, externalId);
      if (!winner) throw error;
      const refusal = refusalFor(winner);
      return refusal ? { ok: false, message: refusal } : { ok: true, value: { user: winner, created: false } };
    }
  }
  return { ok: false, message: messages.usernameTaken };
}

/** Signs in the account holding this identity, creating it when registration is on. */
export async function signInWithIdentity(
  provider: Provider,
  externalId: string,
  profile: IdentityProfile = {},
  affCode = "",
): Promise<SignInResult> {
  const owner = await findIdentityOwner(provider, externalId);
  if (owner) {
    const refusal = refusalFor(owner);
    return refusal ? { ok: false, message: refusal } : { ok: true, value: { user: owner, created: false } };
  }
  if (!options.bool("RegisterEnabled")) return { ok: false, message: messages.registerDisabled };
  return createForIdentity(provider, externalId, profile, affCode);
}

const TAKEN_MESSAGE: Record<Provider, string> = {
  github: "该 GitHub 账户已被绑定",
  wechat: "该微信账号已被绑定",
  telegram: "该 Telegram 账户已被绑定",
};

/** Attaches the identity to this account (replacing an earlier one of the same provider); refused when another account holds it. */
export async function bindIdentity(user: User, provider: Provider, externalId: string): Promise<Result> {
  if (user.status === USER_STATUS_BANNED) return { ok: false, message: messages.banned };
  const owner = await findIdentityOwner(provider, externalId);
  if (owner && owner.id !== user.id) return { ok: false, message: TAKEN_MESSAGE[provider] };
  if (owner) return { ok: true };
  const db = await getDb();
  try {
    await db
      .updateTable("users")
      .set({ [COLUMN[provider]]: externalId })
      .where("id", "=", user.id)
      .where("deleted_at", "is", null)
      .execute();
  } catch (error) {
    // Another account took it between the check and this write: the unique index decides.
    if (isUniqueViolation(error)) return { ok: false, message: TAKEN_MESSAGE[provider] };
    throw error;
  }
  return { ok: true };
}

/** The reference's login reply: a User with only these six fields filled. */
export function loginReplyUser(user: User) {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
  };
}
