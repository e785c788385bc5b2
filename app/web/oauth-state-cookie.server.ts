import { randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import {
  createOAuthState,
  plausibleState,
  STATE_TTL_SECONDS,
  takeOAuthState,
  type ConsumedState,
  type StateBinding,
} from "~/domain/auth/oauth-state.server";
import { env } from "~/utils/env.server";
import { requestIsHttps } from "~/utils/request.server";
import { getSessionSecret } from "~/utils/secrets.server";
import { currentSessionId, getSessionUser } from "./session-cookie.server";

/**
 * The browser side of OAuth states (`app/domain/auth/oauth-state.server.ts`, docs/decisions/018):
 * what a request's state is bound to — its live session when signed in, else the value of the
 * signed pre-login cookie `oauth_pre` — and that cookie, set with a visitor's first state.
 */
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

async function readPrelogin(request: Request): Promise<string | undefined> {
  const value: unknown = await prelogin().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length >= 32 ? value : undefined;
}

/** This browser's live session id: undefined for visitors and for a cookie with no live session behind it. */
async function liveSessionId(request: Request): Promise<string | undefined> {
  return (await getSessionUser(request)) ? await currentSessionId(request) : undefined;
}

/**
 * What a state from this browser is bound to right now: its live session when signed in, else its
 * pre-login cookie (undefined when it has none). A state issued before signing in therefore does
 * not bind, and one issued to a session dies with it.
 */
async function bindingOf(request: Request): Promise<StateBinding | undefined> {
  const sessionId = await liveSessionId(request);
  if (sessionId) return { sessionId };
  const value = await readPrelogin(request);
  return value ? { prelogin: value } : undefined;
}

export type IssuedState = { state: string; setCookie?: string };

/** A new state for this browser; `setCookie` (a visitor's pre-login cookie) must reach the browser with it. */
export async function issueOAuthState(request: Request, affCode = ""): Promise<IssuedState> {
  const sessionId = await liveSessionId(request);
  let binding: StateBinding;
  let setCookie: string | undefined;
  if (sessionId) {
    binding = { sessionId };
  } else {
    // A visitor keeps one pre-login value for a while (several tabs may sign in at once); each
    // issue refreshes its lifetime so it outlives the state just handed out.
    const value = (await readPrelogin(request)) ?? randomBytes(32).toString("base64url");
    setCookie = await prelogin().serialize(value, { secure: !env.INSECURE_COOKIES && requestIsHttps(request) });
    binding = { prelogin: value };
  }
  const state = await createOAuthState(binding, affCode);
  return { state, setCookie };
}

/**
 * Uses up a state if it is this browser's and still fresh. A malformed state is refused before the
 * browser's binding is looked up.
 */
export async function consumeOAuthState(request: Request, state: string): Promise<ConsumedState> {
  if (!plausibleState(state)) return { ok: false };
  return takeOAuthState(await bindingOf(request), state);
}
