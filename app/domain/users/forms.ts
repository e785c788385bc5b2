import { z } from "zod";
import { messages } from "~/messages";

/** Personal settings: the password change form (the old password is required, see updateSelf). */
export const changePasswordSchema = z
  .object({
    original_password: z.string({ error: messages.oldPasswordRequired }).min(1, messages.oldPasswordRequired),
    password: z.string({ error: messages.passwordTooShort }).min(8, messages.passwordTooShort).max(20, "密码长度不得超过 20 位"),
    password2: z.string({ error: messages.passwordMismatchSelf }),
  })
  .refine((v) => v.password === v.password2, { path: ["password2"], message: messages.passwordMismatchSelf });
