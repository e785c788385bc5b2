import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_STATUS_BANNED, USER_STATUS_ENABLED, roleLabel } from "./roles";

type Tag = { label: string; tone: "green" | "red" | "gray" | "blue" | "yellow" };

/** The /user table's status: a deregistered account is 已注销 whatever its status field says. */
export function userStatusTag(status: number, deregistered: boolean): Tag {
  if (deregistered) return { label: "已注销", tone: "gray" };
  if (status === USER_STATUS_ENABLED) return { label: "已激活", tone: "green" };
  if (status === USER_STATUS_BANNED) return { label: "已封禁", tone: "red" };
  return { label: "未知状态", tone: "gray" };
}

export function userRoleTag(role: number): Tag {
  const tone = role === ROLE_ROOT ? "yellow" : role === ROLE_ADMIN ? "blue" : role === ROLE_USER ? "gray" : "red";
  return { label: roleLabel(role), tone };
}
