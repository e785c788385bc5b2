import type { Channel } from "../../../db/schema";
import { isDatabaseUnavailable } from "~/utils/db-errors";
import type { TokenContext } from "../auth/token-auth.server";
import type { PricedModel } from "../billing/price-tables.server";
import { reserveQuota, type Payer, type ReserveResult } from "../billing/quota.server";
import type { RelayFailure } from "../relay-error";
import { admit, isAdmission, type Admission } from "./admit.server";
import { runAttempts, type TryChannel } from "./attempt-loop.server";
import { refusals, reservationRefusal } from "./refusals";
import { CallSettlement } from "./settlement.server";
import { callEnded, callStarted } from "../calls-in-flight";
import { callStep, noteAdmittedModel, noteServingChannel } from "../observe-call.server";
import { endSpan } from "~/utils/tracing.server";
import { admitCallerLimits } from "../limits/caller-limits.server";

/** How much a call holds while it runs: `hold` (with decision 009's floor), or `estimate` alone when that is all the balance has. */
export type Hold = { hold: number; estimate: number };

/**
 * One relayed call as a surface describes it; the admission module runs the sequence every
 * surface shares (docs/decisions/033-one-admission-path.md). Each surface keeps only what is its
 * own: how it reads its request (before this), how it prices the hold, how one channel is
 * tried, how the reply is written and what is billed for it.
 */
export type AdmittedCall<T> = {
  token: TokenContext;
  model: string;
  requestId: string;
  startedAt: number;
  /** The one channel that must serve (the channel holding a task that an action continues). */
  channel?: Channel;
  /** The hold at this price, or a refusal (a surface that sells only at a fixed price). 0: nothing held. */
  hold(priced: PricedModel, admission: Admission): Hold | RelayFailure;
  attempt: TryChannel<T>;
  clientGone?: () => boolean;
  /**
   * A channel served the call. The surface writes its reply and settles or refunds through the
   * handle — now, or later (a Realtime session settles when it closes). If this throws before
   * either, the hold goes back.
   */
  served(value: T, settlement: CallSettlement, channel: Channel): void | Promise<void>;
};

const never = () => false;

/**
 * token, group and model → channels → price → hold → attempts with failover and auto-disable →
 * the surface's reply, settled with its log row or refunded. Returns the refusal or failure for
 * the surface to answer in its own shape, when nothing was written to the client.
 */
export async function relayAdmitted<T>(call: AdmittedCall<T>): Promise<RelayFailure | undefined> {
  callStarted();
  try {
    return await admitted(call);
  } finally {
    callEnded();
  }
}

async function admitted<T>(call: AdmittedCall<T>): Promise<RelayFailure | undefined> {
  const step = callStep(call.requestId, "admission");
  const refused = (failure: RelayFailure) => {
    endSpan(step, `refused ${failure.status}: ${failure.message}`);
    return failure;
  };
  // Plain values in the steady state; awaiting one anyway costs a microtask turn.
  const admitting = admit(call.token, call.model, { channel: call.channel });
  const admission = admitting instanceof Promise ? await admitting : admitting;
  if (!isAdmission(admission)) return refused(admission);
  noteAdmittedModel(call.requestId, admission.model, call.token.token.id);
  // The caller's limits before anything is held: a refused call holds no quota.
  const limiting = admitCallerLimits(call.token);
  const limits = limiting instanceof Promise ? await limiting : limiting;
  if (limits && "status" in limits) return refused(limits);
  if (limits) admission.limits = limits;
  const hold = call.hold(admission.priced, admission);
  if ("status" in hold) return refused(hold);
  const reserving = hold.hold > 0 ? reserve(call.token, hold) : undefined;
  const reserved = reserving instanceof Promise ? await reserving : reserving;
  if (reserved && !reserved.ok) return refused("failure" in reserved ? reserved.failure : reservationRefusal(reserved));
  const reservation = reserved?.reservation;
  endSpan(step);

  let outcome;
  try {
    outcome = await runAttempts(admission, call.attempt, call.clientGone ?? never, call.requestId);
  } catch (error) {
    if (reservation) new CallSettlement(admission, reservation, 0, [], call.requestId, call.startedAt).refund();
    throw error;
  }
  noteServingChannel(call.requestId, outcome.ok ? outcome.channel.id : outcome.chain.at(-1));
  const settlement = new CallSettlement(
    admission,
    reservation,
    outcome.ok ? outcome.channel.id : 0,
    outcome.chain,
    call.requestId,
    call.startedAt,
  );
  if (!outcome.ok) {
    settlement.refund();
    return outcome.failure;
  }
  try {
    const serving = call.served(outcome.value, settlement, outcome.channel);
    if (serving instanceof Promise) await serving;
  } catch (error) {
    settlement.refund();
    throw error;
  } finally {
    outcome.release();
  }
  return undefined;
}

/** The hold, taken from this node's lease of the payer's balance; a ledger that cannot answer is "busy", never a 500. */
function reserve(
  token: TokenContext,
  hold: Hold,
):
  ReserveResult | { ok: false; failure: RelayFailure } | Promise<ReserveResult | { ok: false; failure: RelayFailure }> {
  const payer: Payer = {
    userId: token.user.id,
    tokenId: token.token.id,
    tokenUnlimited: token.token.unlimited_quota,
    tokenKeyHash: token.keyHash,
  };
  const unavailable = (error: unknown) => {
    if (!isDatabaseUnavailable(error)) throw error;
    return { ok: false as const, failure: refusals.billingBusy() };
  };
  try {
    const reserving = reserveQuota(payer, Math.max(hold.hold, hold.estimate), hold.estimate);
    return reserving instanceof Promise ? reserving.catch(unavailable) : reserving;
  } catch (error) {
    return unavailable(error);
  }
}
