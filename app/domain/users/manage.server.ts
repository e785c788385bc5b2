import type { User } from "../../../db/schema";
import { revokeUserSessions } from "~/domain/auth/sessions.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import { publish } from "~/utils/redis.server";
import { deletedUsername } from "./users.server";
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_STATUS_BANNED, USER_STATUS_ENABLED } from "./roles";

export const MANAGE_ACTIONS = ["disable", "enable", "delete", "promote", "demote"] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

export type ManageResult = { ok: true; role: number; status: number } | { ok: false; message: string };

/** Other processes drop cached views of a user (relay token cache) when this fires. */
export const USER_CHANGED_CHANNEL = "user-changed";

/**
 * The reference's user-management actions with its rules: nobody acts on a peer or superior
 * (root excepted), only root promotes, root is never demoted or banned. Banning and deleting
 * end the user's sessions at once.
 */
export async function manageUser(actor: User, targetId: number, action: ManageAction): Promise<ManageResult> {
  const db = await getDb();
  const target = await db.selectFrom("users").selectAll().where("id", "=", targetId).executeTakeFirst();
  if (!target) return { ok: false, message: "用户不存在" };
  if (target.deleted_at) return { ok: false, message: messages.userDeregistered };
  if (target.role >= actor.role && actor.role !== ROLE_ROOT) return { ok: false, message: "无权更新同权限等级或更高权限等级的用户信息" };
  let role = target.role;
  let status = target.status;
  switch (action) {
    case "disable":
      if (target.role === ROLE_ROOT) return { ok: false, message: "无法禁用超级管理员用户" };
      status = USER_STATUS_BANNED;
      break;
    case "enable":
      status = USER_STATUS_ENABLED;
      break;
    case "delete":
      if (target.role === ROLE_ROOT) return { ok: false, message: "无法删除超级管理员用户" };
      break;
    case "promote":
      if (actor.role !== ROLE_ROOT) return { ok: false, message: "普通管理员用户无法提升其他用户为管理员" };
      if (target.role >= ROLE_ADMIN) return { ok: false, message: "该用户已经是管理员" };
      role = ROLE_ADMIN;
      break;
    case "demote":
      if (target.role === ROLE_ROOT) return { ok: false, message: "无法降级超级管理员用户" };
      if (target.role === ROLE_USER) return { ok: false, message: "该用户已经是普通用户" };
      role = ROLE_USER;
      break;
  }
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
  return { ok: true, role, status };
}
