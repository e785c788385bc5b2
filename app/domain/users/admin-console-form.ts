import { z } from "zod";
import { userFields } from "./admin-input";
import type { UserEdit } from "./admin.server";

/**
 * The /user page's forms, read with conform's parseWithZod (an empty field arrives as undefined,
 * numbers are read from their text). Field rules are the /api's (admin-input.ts).
 */

/** 添加用户: username and password required (docs/product.md), display name optional. */
export const addUserConsoleSchema = z.object({
  username: userFields.username,
  display_name: userFields.displayName.optional(),
  password: userFields.password,
});

/**
 * 编辑用户. A blank password keeps the old one. `original_quota` is the balance the form was
 * shown with: the balance is only written when the field was changed, so saving a new display
 * name never puts back a balance that charges have lowered since the page was loaded.
 */
export const editUserConsoleSchema = z.object({
  username: userFields.username,
  display_name: userFields.displayName.optional(),
  password: userFields.password.optional(),
  email: userFields.email.optional(),
  group: userFields.group.optional(),
  quota: userFields.quota.optional(),
  original_quota: z.number().int().optional(),
});

/** 添加额度: a signed amount of quota units added in the database (never below zero there). */
export const addQuotaConsoleSchema = z.object({
  quota_delta: userFields.quotaDelta,
});

/**
 * The edit as the domain takes it. Editing oneself leaves group and quota out whatever was
 * posted (the product shows neither field then); a cleared display name or email is written as
 * empty (the domain puts the username back as display name).
 */
export function toUserEdit(id: number, input: z.infer<typeof editUserConsoleSchema>, self: boolean): UserEdit {
  const edit: UserEdit = {
    id,
    username: input.username,
    display_name: input.display_name ?? "",
    email: input.email ?? "",
  };
  if (input.password) edit.password = input.password;
  if (!self) {
    if (input.group !== undefined) edit.group = input.group;
    if (input.quota !== undefined && input.quota !== input.original_quota) edit.quota = input.quota;
  }
  return edit;
}
