import { z } from "zod";
import { messages } from "~/messages";

/**
 * Sign-in and registration forms. The server parses with these; the browser gets only the HTML
 * constraints derived from them (web/form-constraint.server.ts), never zod itself.
 */
export const loginSchema = z.object({
  username: z.string({ error: messages.loginEmpty }).trim().min(1, messages.loginEmpty),
  password: z.string({ error: messages.loginEmpty }).min(1, messages.loginEmpty),
  redirectTo: z.string().optional(),
});

export type LoginInput = z.input<typeof loginSchema>;

const baseRegister = z.object({
  username: z
    .string({ error: messages.usernameRequired })
    .trim()
    .min(1, messages.usernameRequired)
    .max(12, messages.usernameTooLong),
  password: z
    .string({ error: messages.passwordRequired })
    .min(8, messages.passwordTooShort)
    .max(20, "密码长度不得超过 20 位"),
  password2: z.string({ error: messages.passwordMismatch }),
  email: z.string().trim().optional(),
  verification_code: z.string().trim().optional(),
  aff_code: z.string().trim().max(32).optional(),
});

export function registerSchema(emailVerification: boolean) {
  return baseRegister.superRefine((value, ctx) => {
    if (value.password !== value.password2)
      ctx.addIssue({ code: "custom", path: ["password2"], message: messages.passwordMismatch });
    if (emailVerification) {
      if (!value.email) ctx.addIssue({ code: "custom", path: ["email"], message: messages.emailRequired });
      else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.email))
        ctx.addIssue({ code: "custom", path: ["email"], message: messages.emailInvalid });
      if (!value.verification_code)
        ctx.addIssue({ code: "custom", path: ["verification_code"], message: messages.verificationCodeRequired });
    }
  });
}

export type RegisterInput = z.infer<typeof baseRegister>;

/** The register form's 获取验证码 button: only the address matters (the server applies the operator's rules). */
export const sendCodeSchema = z.object({
  email: z
    .string({ error: messages.emailRequired })
    .trim()
    .min(1, messages.emailRequired)
    .max(50, messages.emailInvalid)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, messages.emailInvalid),
});
