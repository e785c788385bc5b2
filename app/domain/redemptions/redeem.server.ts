import { sql } from "kysely";
import type { User } from "../../../db/schema";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { options } from "~/domain/options/store.server";
import { USER_CHANGED_CHANNEL } from "~/domain/users/manage.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import { renderQuota } from "~/utils/format";
import { allowRequest, countRequest, releaseRequest, requestCount } from "~/utils/rate-limit.server";
import { publish } from "~/utils/redis.server";
import { redemptionKeyHash } from "./redemption-keys.server";
import { REDEMPTION_STATUS, redemptionMessages as m } from "./redemption-constants";

/**
 * Guessing keys is limited per account, with a per-address backstop.
 *
 * Per account: at most REDEEM_FAILURES_PER_USER wrong guesses (keys that name no live code) in a
 * window. Every attempt holds a slot while it runs, so a burst of parallel guesses cannot slip
 * under the limit, and only wrong guesses keep theirs: a good code, one already used or one
 * disabled is an answer, not a guess. Once the budget is spent even a good code is refused until
 * the window ends (else the limit would not limit guessing at all).
 *
 * Per address, only as a backstop that never refuses an account which did nothing wrong. What
 * the account limit misses is one person guessing with many accounts from one address; but one
 * address is very often many people (an office or campus NAT, a mobile carrier's shared
 * address, every client at once behind a proxy TRUST_PROXY does not name), and a plain lock per
 * address let a few guessing accounts shut out everyone behind it, people who only came to
 * redeem the code they had bought. So a spent address budget refuses only accounts with
 * REDEEM_OWN_FAILURES_BEFORE_ADDRESS_LIMIT wrong guesses of their own in the window: a clean
 * account, or one with a typo or two, is always answered, while a many-account guesser at a
 * spent address gets that many guesses per account instead of ten, each new account costing a
 * registration (itself limited per address). Keying the backstop by account and address would
 * only repeat the account limit. With 128 random bits no guess succeeds anyway: these limits
 * keep the lookup from being hammered; they are not what keeps the keys safe.
 */
export const REDEEM_FAILURES_PER_USER = 10;
export const REDEEM_FAILURES_PER_ADDRESS = 30;
export const REDEEM_OWN_FAILURES_BEFORE_ADDRESS_LIMIT = 3;
export const REDEEM_FAILURE_WINDOW_SECONDS = 600;

export type RedeemResult =
  | { ok: true; quota: number; balance: number }
  | { ok: false; message: string; reason: "empty" | "limited" | "invalid" | "used" | "disabled" };

class UserGone extends Error {}

/**
 * Spends the code and credits the user exactly once, however many requests race with it: the
 * UPDATE that flips the code from unused to used is the only gate (a concurrent second one
 * re-checks `status` after the first commits and matches nothing), and the credit and its
 * type-1 log are written in the same transaction, so a code is never spent without its credit.
 */
async function spend(user: User, keyHash: string): Promise<{ quota: number; balance: number } | undefined> {
  const db = await getDb();
  const at = Math.floor(Date.now() / 1000);
  return db.transaction().execute(async (trx) => {
    const code = await trx
      .updateTable("redemptions")
      .set({ status: REDEMPTION_STATUS.used, used_user_id: user.id, redeemed_time: at })
      .where("key_hash", "=", keyHash)
      .where("status", "=", REDEMPTION_STATUS.unused)
      .where("deleted_at", "is", null)
      .returning(["id", "quota"])
      .executeTakeFirst();
    if (!code) return undefined;
    const credited = await trx
      .updateTable("users")
      .set({ quota: sql`quota + ${code.quota}::bigint` })
      .where("id", "=", user.id)
      .where("deleted_at", "is", null)
      .returning(["quota", "username"])
      .executeTakeFirst();
    // A user deleted meanwhile: throwing rolls the code back to unused.
    if (!credited) throw new UserGone();
    await trx
      .insertInto("logs")
      .values({
        created_at: at,
        type: LOG_TYPE.topup,
        content: `通过兑换码充值 ${renderQuota(code.quota, options.bool("DisplayInCurrencyEnabled"), options.float("QuotaPerUnit"), 6)}，兑换码ID ${code.id}`,
        user_id: user.id,
        username: credited.username,
        quota: code.quota,
        other: JSON.stringify({ redemption_id: code.id }),
      })
      .execute();
    return { quota: code.quota, balance: credited.quota };
  });
}

/** Why a key could not be spent: it names no live code, or its code is disabled or used. */
async function refusalFor(keyHash: string): Promise<RedeemResult & { ok: false }> {
  const db = await getDb();
  const row = await db
    .selectFrom("redemptions")
    .select("status")
    .where("key_hash", "=", keyHash)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (row?.status === REDEMPTION_STATUS.used) return { ok: false, message: m.keyUsed, reason: "used" };
  if (row?.status === REDEMPTION_STATUS.disabled) return { ok: false, message: m.keyDisabled, reason: "disabled" };
  return { ok: false, message: m.keyInvalid, reason: "invalid" };
}

/** Only a key that names no live code is a wrong guess; every other answer is not counted. */
function isWrongGuess(result: RedeemResult): boolean {
  return !result.ok && result.reason === "invalid";
}

/** `POST /api/user/topup` and the wallet's redeem form. `address` is the caller's client address. */
export async function redeemCode(user: User, presentedKey: string, address: string): Promise<RedeemResult> {
  if (!presentedKey.trim()) return { ok: false, message: m.keyRequired, reason: "empty" };
  const userBucket = ["redeem-user", String(user.id)] as const;
  const addressBucket = ["redeem-address", address] as const;
  // The account's wrong guesses alone (the user bucket also holds its attempts still running).
  const ownFailures = ["redeem-user-failures", String(user.id)] as const;
  const releaseSlots = () => Promise.all([releaseRequest(...userBucket), releaseRequest(...addressBucket)]);
  // Each attempt holds a slot of both budgets while it runs; only wrong guesses keep theirs.
  if (!(await allowRequest(...userBucket, REDEEM_FAILURES_PER_USER, REDEEM_FAILURE_WINDOW_SECONDS))) {
    await releaseRequest(...userBucket);
    return { ok: false, message: m.tooManyFailures, reason: "limited" };
  }
  const addressSpent = !(await allowRequest(
    ...addressBucket,
    REDEEM_FAILURES_PER_ADDRESS,
    REDEEM_FAILURE_WINDOW_SECONDS,
  ));
  if (addressSpent && (await requestCount(...ownFailures)) >= REDEEM_OWN_FAILURES_BEFORE_ADDRESS_LIMIT) {
    await releaseSlots();
    return { ok: false, message: m.tooManyFailures, reason: "limited" };
  }
  let result: RedeemResult;
  try {
    const keyHash = redemptionKeyHash(presentedKey);
    const spent = await spend(user, keyHash);
    result = spent ? { ok: true, ...spent } : await refusalFor(keyHash);
  } catch (error) {
    await releaseSlots();
    if (error instanceof UserGone) return { ok: false, message: messages.userDeregistered, reason: "invalid" };
    throw error;
  }
  if (isWrongGuess(result)) await countRequest(...ownFailures, REDEEM_FAILURE_WINDOW_SECONDS);
  else await releaseSlots();
  // Relay nodes drop their cached balance and quota slices for this user (decision 006).
  if (result.ok) await publish(USER_CHANGED_CHANNEL, String(user.id));
  return result;
}
