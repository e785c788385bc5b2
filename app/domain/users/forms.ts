import { z } from "zod";
import { messages } from "~/messages";

/** Personal settings: the password change form (the old password is required, see updateSelf). */
export const changePasswordSchema = z
  .object({
    original_password: z.string({ error: messages.oldPasswordRequired }).min(1, messages.oldPasswordRequired),
    password: z
      .string({ error: messages.passwordTooShort })
      .min(8, messages.passwordTooShort)
      .max(20, "密码长度不得超过 20 位"),
    password2: z.string({ error: messages.passwordMismatchSelf }),
  })
  .refine((v) => v.password === v.password2, { path: ["password2"], message: messages.passwordMismatchSelf });

/**
 * /user/edit: the signed-in user's own name, display name and (optionally) a new password. The
 * name follows registration's bounds; a new password needs the current one, as updateSelf asks.
 */
export const editSelfSchema = z
  .object({
    username: z
      .string({ error: messages.usernameRequired })
      .trim()
      .min(1, messages.usernameRequired)
      .max(12, messages.usernameTooLong),
    display_name: z.string().max(20, "显示名称长度不得超过 20 位").optional(),
    password: z.string().min(8, messages.passwordTooShort).max(20, "密码长度不得超过 20 位").optional(),
    original_password: z.string().optional(),
  })
  .refine((v) => !v.password || Boolean(v.original_password), {
    path: ["original_password"],
    message: messages.oldPasswordRequired,
  });
