import type { User } from "../../../db/schema";
import { revokeUserSessions } from "~/domain/auth/sessions.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import { publish } from "~/utils/redis.server";
import { USER_CHANGED_CHANNEL } from "./manage.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { ROLE_ROOT } from "./roles";
import { deletedUsername, isUsernameTaken } from "./users.server";
import type { Result } from "~/utils/result";

/** Why `name` cannot become this user's new name, under registration's rules; null if it can. */
async function usernameRefusal(user: User, name: string): Promise<string | null> {
  if (!name) return messages.usernameRequired;
  if (name.length > 12) return messages.usernameTooLong;
  // `#` is reserved for the names of deleted accounts, as at registration.
  if (name.includes("#")) return messages.usernameHasHash;
  if (name !== user.username && (await isUsernameTaken(name))) return messages.usernameTaken;
  return null;
}

export type SelfUpdate = { username?: string; display_name?: string; password?: string; original_password?: string };
export type Outcome = Result;

/**
 * A user's own profile change. Unlike the reference, a new password needs the current one
 * (a stolen session must not be enough to lock the owner out), and every other session of the
 * user is signed out when the password changes.
 */
export async function updateSelf(user: User, change: SelfUpdate, keepSessionId?: string): Promise<Outcome> {
  const db = await getDb();
  const set: { username?: string; display_name?: string; password_hash?: string } = {};
  if (change.username !== undefined) {
    const name = change.username.trim();
    const refusal = await usernameRefusal(user, name);
    if (refusal) return { ok: false, message: refusal };
    if (name !== user.username) set.username = name;
  }
  if (change.display_name !== undefined) set.display_name = change.display_name.trim() || user.username;
  if (change.password) {
    if (!change.original_password) return { ok: false, message: messages.oldPasswordRequired };
    if (!(await verifyPassword(change.original_password, user.password_hash)))
      return { ok: false, message: messages.oldPasswordWrong };
    if (change.password.length < 8 || change.password.length > 20)
      return { ok: false, message: messages.passwordTooShort };
    set.password_hash = await hashPassword(change.password);
  }
  if (Object.keys(set).length === 0) return { ok: true };
  try {
    await db.updateTable("users").set(set).where("id", "=", user.id).execute();
  } catch (error) {
    // Two accounts racing for one name: the unique index decides, the loser gets the message.
    if ((error as { code?: string }).code === "23505") return { ok: false, message: messages.usernameTaken };
    throw error;
  }
  if (set.password_hash) await revokeUserSessions(user.id, keepSessionId);
  // Relay nodes cache the account (its name goes into usage logs); a rename drops that copy.
  if (set.username) await publish(USER_CHANGED_CHANNEL, String(user.id));
  return { ok: true };
}

/**
 * Account deletion is soft (usage logs keep their owner) and frees the username for reuse by
 * suffixing it; the root account cannot delete itself, as in the reference.
 */
export async function deleteSelf(user: User): Promise<Outcome> {
  if (user.role === ROLE_ROOT) return { ok: false, message: messages.rootCannotDelete };
  const db = await getDb();
  await db
    .updateTable("users")
    .set({ deleted_at: new Date(), username: deletedUsername, access_token_hash: null })
    .where("id", "=", user.id)
    .where("deleted_at", "is", null)
    .execute();
  await revokeUserSessions(user.id);
  // Relay nodes drop their cached view of the account, so its tokens stop at once (as an admin's 注销 does).
  await publish(USER_CHANGED_CHANNEL, String(user.id));
  return { ok: true };
}
