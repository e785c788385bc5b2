import { z } from "zod";
import { messages } from "~/messages";
import { idSchema } from "~/utils/edge-input";

/** The admin add/edit bodies of `/api/user/`, with the reference's limits (username 12, password 8–20, display name 20, email 50). */
const password = z
  .string({ error: messages.passwordRequired })
  .min(8, messages.passwordTooShort)
  .max(20, "密码长度不得超过 20 位");
const displayName = z.string().max(20, "显示名称长度不得超过 20 位");
const username = z
  .string({ error: messages.usernameRequired })
  .trim()
  .min(1, messages.usernameRequired)
  .max(12, messages.usernameTooLong);
const group = z.string().trim().min(1, "分组不能为空").max(64);
const email = z.string().trim().max(50, "邮箱地址长度不得超过 50 位");
const quotaMessage = "额度必须是整数";
const quota = z
  .number({ error: quotaMessage })
  .int(quotaMessage)
  .min(0, "额度不能为负数")
  .max(Number.MAX_SAFE_INTEGER, quotaMessage);
const quotaDelta = z
  .number({ error: quotaMessage })
  .int(quotaMessage)
  .min(-Number.MAX_SAFE_INTEGER, quotaMessage)
  .max(Number.MAX_SAFE_INTEGER, quotaMessage);

/** The field rules, shared with the /user page's forms (admin-console-form.ts). */
export const userFields = { username, password, displayName, email, group, quota, quotaDelta, quotaMessage };

export const addUserBody = z.object({
  username,
  password,
  display_name: displayName.optional(),
  role: z.number().int().optional(),
});

export const editUserBody = z.object({
  id: idSchema,
  username: username.optional(),
  display_name: displayName.optional(),
  // "" keeps the old password, as the reference's edit form sends it when unchanged.
  password: z.union([z.literal(""), password]).optional(),
  email: email.optional(),
  group: group.optional(),
  quota: quota.optional(),
  quota_delta: quotaDelta.optional(),
});
