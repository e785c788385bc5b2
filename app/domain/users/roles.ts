export const ROLE_USER = 1;
export const ROLE_ADMIN = 10;
export const ROLE_ROOT = 100;

export const USER_STATUS_ENABLED = 1;
export const USER_STATUS_BANNED = 2;

export function roleLabel(role: number): string {
  if (role === ROLE_ROOT) return "超级管理员";
  if (role === ROLE_ADMIN) return "管理员";
  if (role === ROLE_USER) return "普通用户";
  return "未知身份";
}
