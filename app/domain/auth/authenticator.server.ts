import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { User } from "../../../db/schema";
import { messages } from "~/messages";
import { options } from "~/domain/options/store.server";
import { verifyCredentials } from "~/domain/users/users.server";

/** A refusal the sign-in form shows as its error (wrong password, login disabled, …). */
export class SignInError extends Error {}

export async function checkPasswordSignIn(username: string, password: string): Promise<User> {
  if (!options.bool("PasswordLoginEnabled")) throw new SignInError(messages.passwordLoginDisabled);
  if (!username || !password) throw new SignInError(messages.loginEmpty);
  const user = await verifyCredentials(username, password);
  if (!user) throw new SignInError(messages.loginFailed);
  return user;
}

export const authenticator = new Authenticator<User>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const username = String(form.get("username") ?? "").trim();
    const password = String(form.get("password") ?? "");
    return checkPasswordSignIn(username, password);
  }),
  "password",
);
