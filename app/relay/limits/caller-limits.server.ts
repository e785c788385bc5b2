import { options } from "~/domain/options/store.server";
import { addToWindow, checkAndCount, type LimitSpec, type WindowAnswer } from "~/utils/window-limits.server";
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
export function admitCallerLimits(
  token: TokenContext,
): LimitTicket | RelayFailure | undefined | Promise<LimitTicket | RelayFailure | undefined> {
  const { rpm_limit: rpm, tpm_limit: tpm, id: tokenId } = token.token;
  const userLimited = options.bool("ModelRequestRateLimitEnabled");
  if (rpm <= 0 && tpm <= 0 && !userLimited) return undefined;
  return checkLimits(token, tokenId, rpm, tpm, userLimited);
}

async function checkLimits(
  token: TokenContext,
  tokenId: number,
  rpm: number,
  tpm: number,
  userLimited: boolean,
): Promise<LimitTicket | RelayFailure | undefined> {
  const userId = token.user.id;
  const period = Math.max(1, options.int("ModelRequestRateLimitDurationMinutes")) * MINUTE;
  const userCount = userLimited ? options.int("ModelRequestRateLimitCount") : 0;
  const userSuccesses = userLimited ? options.int("ModelRequestRateLimitSuccessCount") : 0;
  // One step: every counter fits and the request ones are counted, or none is (a call refused by
  // the user's limit takes no place of the token's). The refusal names the first that is full.
  const specs: LimitSpec[] = [];
  const refusals: ((answer: WindowAnswer) => RelayFailure)[] = [];
  if (tpm > 0) {
    specs.push({ kind: "peek", key: `limit:token-tpm:${tokenId}`, limit: tpm, windowMs: MINUTE });
    refusals.push((answer) => refuse("token_tpm", rateLimited.tokenTpm(tpm, answer)));
  }
  if (userSuccesses > 0) {
    specs.push({ kind: "peek", key: `limit:user-success:${userId}`, limit: userSuccesses, windowMs: period });
    refusals.push((answer) =>
      refuse("user_success", rateLimited.userSuccesses(period / MINUTE, userSuccesses, answer)),
    );
  }
  if (rpm > 0) {
    specs.push({ kind: "take", key: `limit:token-rpm:${tokenId}`, limit: rpm, windowMs: MINUTE });
    refusals.push((answer) => refuse("token_rpm", rateLimited.tokenRpm(rpm, answer)));
  }
  if (userCount > 0) {
    specs.push({ kind: "take", key: `limit:user-requests:${userId}`, limit: userCount, windowMs: period });
    refusals.push((answer) => refuse("user_requests", rateLimited.userRequests(period / MINUTE, userCount, answer)));
  }
  if (specs.length === 0) return undefined;
  const step = await checkAndCount(specs);
  if (!step.allowed) return refusals[step.refused]!(step.answer);
  if (tpm <= 0 && userSuccesses <= 0) return undefined;
  return {
    served(tokens) {
      // Fire and forget: the reply does not wait for a counter (a lost add loosens the limit a little).
      if (tpm > 0 && tokens > 0) void addToWindow(`limit:token-tpm:${tokenId}`, MINUTE, tokens, tpm);
      if (userSuccesses > 0) void addToWindow(`limit:user-success:${userId}`, period, 1, userSuccesses);
    },
  };
}

function refuse(limit: string, failure: RelayFailure): RelayFailure {
  noteLimitRefusal(limit);
  return failure;
}
