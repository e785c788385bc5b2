import type { User } from "../../../db/schema";
import { revokeUserSessions } from "~/domain/auth/sessions.server";
import { getDb } from "~/utils/db.server";
import { publish } from "~/utils/redis.server";
import type { Result } from "~/utils/result";
import { deletedUsername } from "./users.server";
import { afterAction, manageRefusal, ruleMessages, type ManageAction } from "./admin-rules";

export { MANAGE_ACTIONS, type ManageAction } from "./admin-rules";

/** The user's role and status after the action. */
export type ManageResult = Result<{ role: number; status: number }>;

/** Other processes drop cached views of a user (relay token cache) when this fires. */
export const USER_CHANGED_CHANNEL = "user-changed";

/**
 * The reference's user-management actions, under the rules of admin-rules.ts (shared with the
 * /user page). Banning and deleting end the user's sessions at once.
 */
export async function manageUser(actor: User, targetId: number, action: ManageAction): Promise<ManageResult> {
  const db = await getDb();
  const target = await db.selectFrom("users").selectAll().where("id", "=", targetId).executeTakeFirst();
  if (!target) return { ok: false, message: ruleMessages.notFound };
  const refusal = manageRefusal(actor, target, action);
  if (refusal) return { ok: false, message: refusal };
  const { role, status } = afterAction(target, action);
  if (action === "delete") {
    await db
      .updateTable("users")
      .set({ deleted_at: new Date(), username: deletedUsername, access_token_hash: null })
      .where("id", "=", target.id)
      .where("deleted_at", "is", null)
      .execute();
  } else {
    await db.updateTable("users").set({ role, status }).where("id", "=", target.id).execute();
  }
  if (action === "delete" || action === "disable") await revokeUserSessions(target.id);
  await publish(USER_CHANGED_CHANNEL, String(target.id));
  return { ok: true, value: { role, status } };
}
