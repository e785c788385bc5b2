import type { Channel } from "../../../db/schema";
import { setChannelStatus } from "~/domain/channels/channels.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { options } from "~/domain/options/store.server";
import type { UpstreamError } from "../adapters/types";
import { shouldDisableChannel } from "../failure-policy";
import type { RelayFailure } from "../relay-error";
import { routingTable } from "../routing/channel-cache.server";
import { pickChannel } from "../routing/pick-channel";
import type { Admission } from "./admit.server";
import { refusals } from "./refusals";
import { callStep, noteLimitRefusal, noteUpstreamFailure } from "../observe-call.server";
import { endSpan } from "~/utils/tracing.server";
import { setChannelKeyStatus } from "~/domain/channels/channel-key-status.server";
import { KEY_STATUS } from "~/domain/channels/multi-key";
import { leaseChannelKey, needsKeyLease, type KeyLease } from "../limits/channel-keys.server";

/** One channel's try that did not serve the call, as every surface reports it. */
export type FailedAttempt = {
  ok: false;
  /** The status the client gets if this is the last try (after the channel's status_code_mapping). */
  status: number;
  error: UpstreamError;
  /** Another channel may succeed where this one failed. */
  retryable: boolean;
  /** Something already reached the client: no other channel can be tried. */
  responded: boolean;
  /** The upstream's own HTTP status; 0 when it never answered (auto-disable looks only at answers). */
  upstreamStatus: number;
  /** The upstream reply's informative headers (wire-headers), passed on if this is the last try. */
  headers?: Record<string, string>;
};

export type AttemptsOutcome<T> =
  /** `release` gives back the place the serving key holds (a concurrency slot) once the call is over. */
  | { ok: true; value: T; channel: Channel; chain: number[]; release: () => void }
  | { ok: false; failure: RelayFailure; chain: number[] };

export type TryChannel<T> = (channel: Channel, chain: readonly number[]) => Promise<({ ok: true } & T) | FailedAttempt>;

/**
 * The attempt loop: a channel picked from the highest tier not yet exhausted (by weight), tried,
 * and on a retryable failure the next one, up to RetryTimes more (one try for a pinned channel),
 * never the same channel twice; a channel whose upstream says its key will not work again is
 * disabled on the way (AutomaticDisableChannelEnabled and the channel's auto_ban).
 */
export async function runAttempts<T>(
  admission: Admission,
  tryChannel: TryChannel<T>,
  clientGone: () => boolean,
  requestId: string,
): Promise<AttemptsOutcome<T>> {
  const excluded = new Set<number>();
  const chain: number[] = [];
  let last: FailedAttempt | undefined;
  let keysAtLimit = false;
  const attempts = admission.pinned ? 1 : options.int("RetryTimes") + 1;
  for (let attempt = 0; attempt < attempts && !clientGone(); attempt += 1) {
    const routed = pickChannel(admission.tiers, attempt, excluded);
    if (!routed) break;
    // Read afresh per attempt: an auto-disable on another node may have reloaded the table.
    const routedChannel =
      attempt === 0 ? admission.routing.channels.get(routed.id) : (await routingTable()).channels.get(routed.id);
    if (!routedChannel) break;
    let lease: KeyLease | undefined;
    if (needsKeyLease(routedChannel)) {
      lease = await leaseChannelKey(routedChannel);
      if (!lease) {
        // Every key at its cap or set aside: the next channel, as a failover would, without
        // calling this one or spending a retry on it.
        noteLimitRefusal("channel_keys");
        keysAtLimit = true;
        excluded.add(routedChannel.id);
        attempt -= 1;
        continue;
      }
    }
    const channel = lease?.channel ?? routedChannel;
    chain.push(channel.id);
    const step = callStep(requestId, "upstream attempt", {
      "switchyard.channel_id": channel.id,
      "switchyard.channel_type": channel.type,
      "switchyard.attempt": attempt,
    });
    let result;
    try {
      result = await tryChannel(channel, chain);
    } catch (error) {
      lease?.release();
      endSpan(step, String(error));
      throw error;
    }
    endSpan(step, result.ok ? undefined : `${result.status} ${result.error.message.slice(0, 200)}`);
    if (result.ok) return { ok: true, value: result, channel, chain, release: lease ? lease.release : nothingHeld };
    lease?.release();
    last = result;
    noteUpstreamFailure(channel.id);
    excluded.add(channel.id);
    await disableIfDead(channel, result, requestId, lease);
    if (!result.retryable || result.responded) break;
  }
  if (!last && keysAtLimit) return { ok: false, failure: refusals.channelKeysAtLimit(), chain };
  return { ok: false, failure: lastFailure(admission, last), chain };
}

const nothingHeld = () => undefined;

async function disableIfDead(
  channel: Channel,
  failed: FailedAttempt,
  requestId: string,
  lease: KeyLease | undefined,
): Promise<void> {
  // The client is not told the upstream's words about the channel's key (lastFailure): the operator is.
  if (failed.upstreamStatus === 401 || failed.upstreamStatus === 403)
    console.warn(
      `[relay] ${requestId} channel #${channel.id} key refused by its upstream: ${failed.upstreamStatus} ${failed.error.message.slice(0, 300)}`,
    );
  if (!options.bool("AutomaticDisableChannelEnabled") || !channel.auto_ban || failed.upstreamStatus === 0) return;
  if (!shouldDisableChannel(failed.upstreamStatus, failed.error, channel.type)) return;
  const reason = `${failed.upstreamStatus} ${failed.error.message}`.slice(0, 500);
  // A multi-key channel sets the one key aside and keeps serving with the others.
  if (lease?.multiKey) {
    await setChannelKeyStatus(channel.id, lease.keyIndex, KEY_STATUS.autoDisabled, reason);
    return;
  }
  await setChannelStatus(channel.id, CHANNEL_STATUS.autoDisabled, reason);
}

/** What the client is told when no channel served the call. */
function lastFailure(admission: Admission, last: FailedAttempt | undefined): RelayFailure {
  if (!last) return refusals.noChannel(admission.group, admission.model);
  // An upstream refusing the channel's own key is the gateway's failure, not the caller's: their
  // key was accepted. Told as a 401 it would send them to check their own key; the upstream's
  // words are not passed either (they may quote part of the channel's key).
  if (last.upstreamStatus === 401 || last.upstreamStatus === 403)
    return refusals.channelCredentialsRefused(last.upstreamStatus);
  // Otherwise the upstream's own words: its message, type, code and param, and its reply headers
  // (retry-after on a 429 is the client's backoff hint).
  const { message, type, code, param } = last.error;
  return { status: last.status, message, type, code, param: param ?? null, headers: last.headers };
}
