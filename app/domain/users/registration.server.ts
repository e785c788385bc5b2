import type { User } from "../../../db/schema";
import { consumeVerificationCode, normalizeEmail } from "~/domain/auth/verification-codes.server";
import { codeRefusalMessage } from "~/domain/email/email-flows.server";
import { emailPolicyRefusal, isEmailTaken } from "~/domain/email/email-policy.server";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { isUsernameTaken, registerUser } from "./users.server";

export type RegistrationInput = {
  username: string;
  password: string;
  email?: string;
  verification_code?: string;
  aff_code?: string;
};

export type RegistrationResult =
  { ok: true; user: User } | { ok: false; message: string; field?: "username" | "email" | "verification_code" };

export { isEmailDomainAllowed } from "~/domain/email/email-policy.server";

/**
 * Password registration with every switch the operator has: registration and password
 * registration on, email verification, the domain whitelist, then the account and invite rewards.
 * Format checks (lengths, matching passwords) are the caller's schema.
 */
export async function registerWithPassword(input: RegistrationInput): Promise<RegistrationResult> {
  if (!options.bool("RegisterEnabled")) return { ok: false, message: messages.registerDisabled };
  if (!options.bool("PasswordRegisterEnabled")) return { ok: false, message: messages.passwordRegisterDisabled };
  // A deleted account is renamed `<name>#deleted-<id>` (manage.server.ts) to free its name; a live
  // user holding such a name made that rename collide and the account undeletable.
  if (input.username.includes("#")) return { ok: false, message: messages.usernameHasHash, field: "username" };
  let email: string | undefined;
  if (options.bool("EmailVerificationEnabled")) {
    email = normalizeEmail(input.email ?? "");
    const refusal = emailPolicyRefusal(email);
    if (refusal) return { ok: false, message: refusal, field: "email" };
    if (!input.verification_code)
      return { ok: false, message: messages.verificationCodeRequired, field: "verification_code" };
    if (await isUsernameTaken(input.username)) return { ok: false, message: messages.usernameTaken, field: "username" };
    if (await isEmailTaken(email)) return { ok: false, message: messages.emailTaken, field: "email" };
    const used = await consumeVerificationCode("email", email, input.verification_code);
    if (used !== "ok") return { ok: false, message: codeRefusalMessage(used), field: "verification_code" };
  }
  if (await isUsernameTaken(input.username)) return { ok: false, message: messages.usernameTaken, field: "username" };
  try {
    const user = await registerUser({
      username: input.username,
      password: input.password,
      email,
      affCode: input.aff_code || undefined,
    });
    return { ok: true, user };
  } catch (error) {
    // Two registrations racing for one name: the unique index decides, the loser gets the message.
    if ((error as { code?: string }).code === "23505")
      return { ok: false, message: messages.usernameTaken, field: "username" };
    throw error;
  }
}
