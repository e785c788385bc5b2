import { options } from "~/domain/options/store.server";
import { addToWindow, takeFromWindow, windowHasRoom, type WindowAnswer } from "~/utils/window-limits.server";
import type { TokenContext } from "../auth/token-auth.server";
import type { RelayFailure } from "../relay-error";
import { noteLimitRefusal } from "../observe-call.server";
import { rateLimited } from "./rate-limited";

const MINUTE = 60_000;

/** What an admitted call owes its limits once served: the tokens it used, its success. */
export type LimitTicket = { served(tokens: number): void };

/**
 * The caller's limits, checked at admission before anything is held (a refused call holds no
 * quota): the token's requests and tokens per minute, and the user's model requests per period
 * (the ModelRequestRateLimit options). Counts that are known only afterwards (tokens, successes)
 * are checked against what earlier calls used and added by the ticket when the call is served.
 * A plain undefined, without a turn of the event loop, when no limit applies.
 */
export function admitCallerLimits(token: TokenContext): LimitTicket | RelayFailure | undefined | Promise<LimitTicket | RelayFailure | undefined> {
  const { rpm_limit: rpm, tpm_limit: tpm, id: tokenId } = token.token;
  const userLimited = options.bool("ModelRequestRateLimitEnabled");
  if (rpm <= 0 && tpm <= 0 && !userLimited) return undefined;
  return checkLimits(token, tokenId, rpm, tpm, userLimited);
}

async function checkLimits(token: TokenContext, tokenId: number, rpm: number, tpm: number, userLimited: boolean): Promise<LimitTicket | RelayFailure | undefined> {
  const userId = token.user.id;
  const period = Math.max(1, options.int("ModelRequestRateLimitDurationMinutes")) * MINUTE;
  const userCount = userLimited ? options.int("ModelRequestRateLimitCount") : 0;
  const userSuccesses = userLimited ? options.int("ModelRequestRateLimitSuccessCount") : 0;
  // Counters that only read go first: a call they refuse takes no request place.
  if (tpm > 0) {
    const room = await windowHasRoom(`limit:token-tpm:${tokenId}`, tpm, MINUTE);
    if (!room.allowed) return refuse("token_tpm", rateLimited.tokenTpm(tpm, room));
  }
  if (userSuccesses > 0) {
    const room = await windowHasRoom(`limit:user-success:${userId}`, userSuccesses, period);
    if (!room.allowed) return refuse("user_success", rateLimited.userSuccesses(period / MINUTE, userSuccesses, room));
  }
  if (rpm > 0) {
    const taken = await takeFromWindow(`limit:token-rpm:${tokenId}`, rpm, MINUTE);
    if (!taken.allowed) return refuse("token_rpm", rateLimited.tokenRpm(rpm, taken));
  }
  if (userCount > 0) {
    const taken = await takeFromWindow(`limit:user-requests:${userId}`, userCount, period);
    if (!taken.allowed) return refuse("user_requests", rateLimited.userRequests(period / MINUTE, userCount, taken));
  }
  if (tpm <= 0 && userSuccesses <= 0) return undefined;
  return {
    served(tokens) {
      // Fire and forget: the reply does not wait for a counter (a lost add loosens the limit a little).
      if (tpm > 0 && tokens > 0) void addToWindow(`limit:token-tpm:${tokenId}`, MINUTE, tokens);
      if (userSuccesses > 0) void addToWindow(`limit:user-success:${userId}`, period, 1);
    },
  };
}

function refuse(limit: string, failure: RelayFailure): RelayFailure {
  noteLimitRefusal(limit);
  return failure;
}

export type { WindowAnswer };
