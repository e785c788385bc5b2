import type { Channel } from "../../../db/schema";
import { keyStatus, KEY_STATUS, parseChannelInfo, splitKeys, type ChannelInfo } from "~/domain/channels/multi-key";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import { checkAndCount, type LimitSpec } from "~/utils/window-limits.server";

const MINUTE = 60_000;
/**
 * How long a call may hold a key's concurrency slot before it lapses: longer than any reply
 * waits (RELAY_TIMEOUT), so only a node that died holding it, or a stream running past it,
 * gives its place back early.
 */
const KEY_SLOT_TTL_MS = 10 * MINUTE;

/** The key one attempt uses: the channel as the adapters see it (its key this one alone), and the place it holds. */
export type KeyLease = {
  channel: Channel;
  /** The key's line number on a multi-key channel (0 on a one-key channel). */
  keyIndex: number;
  multiKey: boolean;
  release(): void;
};

type KeySet = { info: ChannelInfo; enabled: number[]; sealed: string[] };

// Per routing-table row: a reloaded table (a changed key, a key set aside) has new rows.
const keySets = new WeakMap<Channel, KeySet>();
const pollingNext = new Map<number, number>();
const nothingHeld = () => undefined;

/** Whether an attempt on this channel must choose a key or take a place first (else the channel is used as it is, at no cost). */
export function needsKeyLease(channel: Channel): boolean {
  return channel.channel_info !== "" || channel.key_max_concurrency > 0 || channel.key_rpm_limit > 0;
}

function keySetOf(channel: Channel): KeySet {
  let set = keySets.get(channel);
  if (set) return set;
  const info = parseChannelInfo(channel.channel_info);
  if (!info.is_multi_key) {
    set = { info, enabled: [0], sealed: [channel.key_encrypted] };
  } else {
    // Each key sealed on its own, so everything downstream (adapters, the Realtime socket, task
    // polling) reads "the channel's key" as it does for a one-key channel.
    const keys = splitKeys(decryptSecret(channel.key_encrypted), info);
    const enabled = keys.map((_, index) => index).filter((index) => keyStatus(info, index) === KEY_STATUS.enabled);
    set = { info, enabled, sealed: keys.map((key) => encryptSecret(key)) };
  }
  keySets.set(channel, set);
  return set;
}

/** Where to start looking: a random key, or the next in turn (per node) for a polling channel. */
function firstChoice(channel: Channel, set: KeySet): number {
  if (set.info.multi_key_mode !== "polling") return Math.floor(Math.random() * set.enabled.length);
  const next = pollingNext.get(channel.id) ?? 0;
  pollingNext.set(channel.id, (next + 1) % 1_000_000_000);
  return next;
}

/**
 * A key of the channel that is enabled and under its caps (requests in flight, requests per
 * minute), its place taken; undefined when every key is at a cap or set aside, so the attempt
 * loop goes on to the next channel without calling this one.
 */
export async function leaseChannelKey(channel: Channel): Promise<KeyLease | undefined> {
  const set = keySetOf(channel);
  const count = set.enabled.length;
  if (count === 0) return undefined;
  const start = firstChoice(channel, set);
  for (let i = 0; i < count; i += 1) {
    const index = set.enabled[(start + i) % count]!;
    const specs: LimitSpec[] = [];
    if (channel.key_max_concurrency > 0)
      specs.push({
        kind: "slot",
        key: `limit:key-slots:${channel.id}:${index}`,
        limit: channel.key_max_concurrency,
        ttlMs: KEY_SLOT_TTL_MS,
      });
    if (channel.key_rpm_limit > 0)
      specs.push({
        kind: "take",
        key: `limit:key-rpm:${channel.id}:${index}`,
        limit: channel.key_rpm_limit,
        windowMs: MINUTE,
      });
    const step = specs.length > 0 ? await checkAndCount(specs) : undefined;
    if (step && !step.allowed) continue;
    const slot = step?.slot;
    const multiKey = set.info.is_multi_key;
    return {
      channel: multiKey ? { ...channel, key_encrypted: set.sealed[index]! } : channel,
      keyIndex: index,
      multiKey,
      release: slot ? () => slot.release() : nothingHeld,
    };
  }
  return undefined;
}
