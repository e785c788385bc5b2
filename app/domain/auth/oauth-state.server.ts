import { createHash, randomBytes } from "node:crypto";
import { getDb } from "~/utils/db.server";

/**
 * OAuth `state` values (docs/decisions/018). Each one is random, stored only as a hash, expires
 * after ten minutes (GitHub's own code lifetime), is consumed by its first use, and is bound to the
 * browser that asked for it: to its session when signed in (the state then binds an account), else
 * to the value of a signed pre-login cookie set with it (the state then signs in). A state that
 * leaked — in a log, a referrer, another browser — is refused anywhere but where it was issued,
 * which is what stops a forged callback from logging a victim into the attacker's account or
 * binding the attacker's GitHub to the victim's. Finding the binding in a request, and the
 * pre-login cookie itself, are the web layer's (`app/web/oauth-state-cookie.server.ts`).
 */
export const STATE_TTL_SECONDS = 600;

/**
 * What a state is bound to: the live session of a signed-in browser, or a visitor's pre-login
 * value. Only its hash is stored.
 */
export type StateBinding = { sessionId: string } | { prelogin: string };

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function bindingHash(binding: StateBinding): string {
  return "sessionId" in binding ? sha256(`session:${binding.sessionId}`) : sha256(`prelogin:${binding.prelogin}`);
}

/** A new state bound to `binding`. */
export async function createOAuthState(binding: StateBinding, affCode = ""): Promise<string> {
  const state = randomBytes(24).toString("base64url");
  const db = await getDb();
  // Expired states are cleared as new ones are made: no job needed, the table stays small.
  await db.deleteFrom("oauth_states").where("expires_at", "<=", new Date()).execute();
  await db
    .insertInto("oauth_states")
    .values({
      state_hash: sha256(state),
      binding_hash: bindingHash(binding),
      aff_code: affCode.slice(0, 32),
      expires_at: new Date(Date.now() + STATE_TTL_SECONDS * 1000),
    })
    .execute();
  return state;
}

export type ConsumedState = { ok: true; signedIn: boolean; affCode: string } | { ok: false };

/** Whether `state` could be one of ours at all; anything else is refused before a lookup. */
export function plausibleState(state: string): boolean {
  return state !== "" && state.length <= 200;
}

/**
 * Uses up a state if it was issued to `binding` (undefined: a browser with neither a session nor
 * a pre-login value, whose states never pass) and is still fresh. One statement deletes and
 * answers, so two callbacks racing with one state cannot both pass.
 */
export async function takeOAuthState(binding: StateBinding | undefined, state: string): Promise<ConsumedState> {
  if (!plausibleState(state)) return { ok: false };
  if (!binding) return { ok: false };
  const db = await getDb();
  const row = await db
    .deleteFrom("oauth_states")
    .where("state_hash", "=", sha256(state))
    .where("binding_hash", "=", bindingHash(binding))
    .where("expires_at", ">", new Date())
    .returning("aff_code")
    .executeTakeFirst();
  return row ? { ok: true, signedIn: "sessionId" in binding, affCode: row.aff_code } : { ok: false };
}
