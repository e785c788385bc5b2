import type { User } from "../../../db/schema";
import type { OptionKey } from "~/domain/options/registry";
import { options } from "~/domain/options/store.server";

function objectOption(key: OptionKey): Record<string, unknown> {
  const value = options.json<unknown>(key);
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Group names known to billing (the keys of GroupRatio), for admins. */
export function listGroupNames(): string[] {
  return Object.keys(objectOption("GroupRatio"));
}

/**
 * Groups a user may pick for a token: UserUsableGroups ∩ GroupRatio (a group without a ratio
 * cannot be billed), plus the user's own group labelled 用户分组, as the reference does.
 */
export function userUsableGroups(user: Pick<User, "group">): Record<string, string> {
  const usable = objectOption("UserUsableGroups");
  const ratios = objectOption("GroupRatio");
  const groups: Record<string, string> = {};
  for (const [name, label] of Object.entries(usable)) {
    if (name in ratios) groups[name] = typeof label === "string" ? label : name;
  }
  if (!(user.group in groups)) groups[user.group] = "用户分组";
  return groups;
}

export function canUseGroup(user: Pick<User, "group">, group: string): boolean {
  return group === "" || group in userUsableGroups(user);
}

/** The public group list (`GET /api/user/groups`): UserUsableGroups as name → label. */
export function usableGroupLabels(): Record<string, string> {
  const groups: Record<string, string> = {};
  for (const [name, label] of Object.entries(objectOption("UserUsableGroups")))
    groups[name] = typeof label === "string" ? label : name;
  return groups;
}
