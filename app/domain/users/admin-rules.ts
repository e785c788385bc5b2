import type { User } from "../../../db/schema";
import { messages } from "~/messages";
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_STATUS_BANNED, USER_STATUS_ENABLED } from "./roles";

/**
 * Who may do what to whom in user management, in one place: the /api routes and the /user page
 * both ask here, so a button the page offers is exactly an action the server would accept.
 * Pure (no database): callers load the rows.
 */

export const MANAGE_ACTIONS = ["disable", "enable", "delete", "promote", "demote"] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

type Actor = Pick<User, "id" | "role">;
type Target = Pick<User, "id" | "role" | "status" | "deleted_at">;

export const ruleMessages = {
  notFound: "用户不存在",
  deregistered: messages.userDeregistered,
  peerOrHigher: "无权更新同权限等级或更高权限等级的用户信息",
  peerOrHigherView: "无权获取同级或更高等级用户的信息",
  rootLocked: "无法编辑超级管理员用户",
  rootNotBanned: "无法禁用超级管理员用户",
  rootNotDeleted: "无法删除超级管理员用户",
  onlyRootPromotes: "普通管理员用户无法提升其他用户为管理员",
  alreadyAdmin: "该用户已经是管理员",
  rootNotDemoted: "无法降级超级管理员用户",
  alreadyOrdinary: "该用户已经是普通用户",
} as const;

/** Whether `actor` may act on `target` at all (view or change): root on anyone, others on lower roles. */
export function outranks(actor: Actor, target: Pick<User, "role">): boolean {
  return actor.role === ROLE_ROOT || target.role < actor.role;
}

/**
 * Why `actor` may not apply a row action to `target` (the reference's rules): nobody acts on a
 * peer or superior (root excepted), only root promotes, root is never banned, deleted or demoted,
 * and a deregistered account takes nothing. Undefined when allowed.
 */
export function manageRefusal(actor: Actor, target: Target, action: ManageAction): string | undefined {
  if (target.deleted_at) return ruleMessages.deregistered;
  if (target.role >= actor.role && actor.role !== ROLE_ROOT) return ruleMessages.peerOrHigher;
  switch (action) {
    case "disable":
      return target.role === ROLE_ROOT ? ruleMessages.rootNotBanned : undefined;
    case "enable":
      return undefined;
    case "delete":
      return target.role === ROLE_ROOT ? ruleMessages.rootNotDeleted : undefined;
    case "promote":
      if (actor.role !== ROLE_ROOT) return ruleMessages.onlyRootPromotes;
      return target.role >= ROLE_ADMIN ? ruleMessages.alreadyAdmin : undefined;
    case "demote":
      if (target.role === ROLE_ROOT) return ruleMessages.rootNotDemoted;
      return target.role === ROLE_USER ? ruleMessages.alreadyOrdinary : undefined;
  }
}

/** The role and status an allowed action leaves behind. */
export function afterAction(
  target: Pick<User, "role" | "status">,
  action: ManageAction,
): { role: number; status: number } {
  switch (action) {
    case "disable":
      return { role: target.role, status: USER_STATUS_BANNED };
    case "enable":
      return { role: target.role, status: USER_STATUS_ENABLED };
    case "promote":
      return { role: ROLE_ADMIN, status: target.status };
    case "demote":
      return { role: ROLE_USER, status: target.status };
    case "delete":
      return { role: target.role, status: target.status };
  }
}

/**
 * Why `actor` may not edit `target` (profile, password, group, quota). Root may edit itself (as in
 * the reference: the way root gives itself quota; its role never changes here), admins only
 * ordinary users, nobody a deregistered account.
 */
export function editRefusal(actor: Actor, target: Target): string | undefined {
  if (target.deleted_at) return ruleMessages.deregistered;
  if (target.role === ROLE_ROOT && actor.id !== target.id) return ruleMessages.rootLocked;
  if (!outranks(actor, target)) return ruleMessages.peerOrHigher;
  return undefined;
}

export type RowOperations = { edit: boolean; actions: ManageAction[] };

/**
 * What the /user page offers on one row: the actions the server would accept, less those that
 * would change nothing (enable on an active account, disable on a banned one). Status 3 exists
 * but, as in the reference, is not enabled from the page.
 */
export function rowOperations(actor: Actor, target: Target): RowOperations {
  const meaningful = (action: ManageAction) => {
    if (action === "enable") return target.status === USER_STATUS_BANNED;
    if (action === "disable") return target.status === USER_STATUS_ENABLED;
    return true;
  };
  return {
    edit: editRefusal(actor, target) === undefined,
    actions: MANAGE_ACTIONS.filter(
      (action) => meaningful(action) && manageRefusal(actor, target, action) === undefined,
    ),
  };
}
