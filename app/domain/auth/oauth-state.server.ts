import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { requestIsHttps } from "~/utils/request.server";
import { getSessionSecret } from "~/utils/secrets.server";
import { currentSessionId, getSessionUser } from "./sessions.server";

/**
 * OAuth `state` values (docs/decisions/018). Each one is random, stored only as a hash, expires
 * after ten minutes (GitHub's own code lifetime), is consumed by its first use, and is bound to the
 * browser that asked for it: to its session when signed in (the state then binds an account), else
 * to a signed pre-login cookie set with it (the state then signs in). A state that leaked — in a
 * log, a referrer, another browser — is refused anywhere but where it was issued, which is what
 * stops a forged callback from logging a victim into the attacker's account or binding the
 * attacker's GitHub to the victim's.
 */
export const STATE_TTL_SECONDS = 600;
const PRELOGIN_COOKIE = "oauth_pre";

let preloginCookie: ReturnType<typeof createCookie> | undefined;
function prelogin() {
  preloginCookie ??= createCookie(PRELOGIN_COOKIE, {
    httpOnly: true,
    // Lax: GitHub sends the browser back with a top-level GET, which carries Lax cookies.
    sameSite: "lax",
    path: "/",
    secrets: [getSessionSecret()],
    maxAge: STATE_TTL_SECONDS,
  });
  return preloginCookie;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

async function readPrelogin(request: Request): Promise<string | undefined> {
  const value: unknown = await prelogin().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length >= 32 ? value : undefined;
}

/**
 * What a state from this browser is bound to right now: its live session when signed in, else its
 * pre-login cookie (undefined when it has none). A state issued before signing in therefore does
 * not bind, and one issued to a session dies with it.
 */
async function bindingOf(request: Request): Promise<{ hash: string | undefined; signedIn: boolean }> {
  const sessionId = (await getSessionUser(request)) ? await currentSessionId(request) : undefined;
  if (sessionId) return { hash: sha256(`session:${sessionId}`), signedIn: true };
  const value = await readPrelogin(request);
  return { hash: value ? sha256(`prelogin:${value}`) : undefined, signedIn: false };
}

export type IssuedState = { state: string; setCookie?: string };

/** A new state for this browser; `setCookie` (a visitor's pre-login cookie) must reach the browser with it. */
export async function issueOAuthState(request: Request, affCode = ""): Promise<IssuedState> {
  let binding = await bindingOf(request);
  let setCookie: string | undefined;
  if (!binding.signedIn) {
    // A visitor keeps one pre-login value for a while (several tabs may sign in at once); each
    // issue refreshes its lifetime so it outlives the state just handed out.
    const value = (await readPrelogin(request)) ?? randomBytes(32).toString("base64url");
    setCookie = await prelogin().serialize(value, { secure: !env.INSECURE_COOKIES && requestIsHttps(request) });
    binding = { hash: sha256(`prelogin:${value}`), signedIn: false };
  }
  const state = randomBytes(24).toString("base64url");
  const db = await getDb();
  // Expired states are cleared as new ones are made: no job needed, the table stays small.
  await db.deleteFrom("oauth_states").where("expires_at", "<=", new Date()).execute();
  await db
    .insertInto("oauth_states")
    .values({
      state_hash: sha256(state),
      binding_hash: binding.hash ?? "",
      aff_code: affCode.slice(0, 32),
      expires_at: new Date(Date.now() + STATE_TTL_SECONDS * 1000),
    })
    .execute();
  return { state, setCookie };
}

export type ConsumedState = { ok: true; signedIn: boolean; affCode: string } | { ok: false };

/**
 * Uses up a state if it is this browser's and still fresh. One statement deletes and answers, so
 * two callbacks racing with one state cannot both pass.
 */
export async function consumeOAuthState(request: Request, state: string): Promise<ConsumedState> {
  if (!state || state.length > 200) return { ok: false };
  const binding = await bindingOf(request);
  if (!binding.hash) return { ok: false };
  const db = await getDb();
  const row = await db
    .deleteFrom("oauth_states")
    .where("state_hash", "=", sha256(state))
    .where("binding_hash", "=", binding.hash)
    .where("expires_at", ">", new Date())
    .returning("aff_code")
    .executeTakeFirst();
  return row ? { ok: true, signedIn: binding.signedIn, affCode: row.aff_code } : { ok: false };
}
