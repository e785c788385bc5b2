import type { Channel } from "../../../db/schema";
import { checkModelAllowed, resolveGroup, type TokenContext } from "../auth/token-auth.server";
import { pricedModel, type PricedModel } from "../billing/price-tables.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import type { RelayFailure } from "../relay-error";
import { routingTable, tiersIn, type RoutingTable } from "../routing/channel-cache.server";
import type { Tier } from "../routing/pick-channel";
import { refusals } from "./refusals";
import type { LimitTicket } from "../limits/caller-limits.server";

/**
 * A call admitted to be relayed: who pays, under which group, which channels may serve it (in
 * priority tiers) and at what price.
 */
export type Admission = {
  token: TokenContext;
  model: string;
  group: string;
  tiers: Tier[];
  /** The routing table the tiers came from (a later attempt reads the table afresh). */
  routing: RoutingTable;
  priced: PricedModel;
  /** Only one channel may serve it (the token's pinned channel, or the channel that holds a task): no failover. */
  pinned: boolean;
  /** What the caller's limits count once the call is served (set after admission, when a limit applies). */
  limits?: LimitTicket;
};

export type AdmitOptions = {
  /**
   * The one channel that must serve the call (the channel that made the task an action
   * continues). It is checked by the surface, which has its own words for a gone one.
   */
  channel?: Channel;
};

function onlyChannel(channel: Channel): Tier[] {
  return [
    { priority: channel.priority, channels: [{ id: channel.id, weight: channel.weight, priority: channel.priority }] },
  ];
}

/**
 * Admission, in the order every surface keeps: the token may use the model → the group it
 * bills under → the channels that serve the model there (or the pinned one) → the price.
 * A plain value in the steady state (routing table loaded): only a cold start awaits.
 */
export function admit(
  token: TokenContext,
  model: string,
  options: AdmitOptions = {},
): Admission | RelayFailure | Promise<Admission | RelayFailure> {
  if (!model) return refusals.modelRequired();
  const refusal = checkModelAllowed(token, model);
  if (refusal) return refusal;
  const group = resolveGroup(token);
  if (typeof group !== "string") return group;
  const table = routingTable();
  return table instanceof Promise
    ? table.then((routing) => admitIn(routing, token, model, group, options))
    : admitIn(table, token, model, group, options);
}

function admitIn(
  routing: RoutingTable,
  token: TokenContext,
  model: string,
  group: string,
  options: AdmitOptions,
): Admission | RelayFailure {
  let tiers: Tier[];
  let pinned = false;
  if (options.channel) {
    tiers = onlyChannel(options.channel);
    pinned = true;
  } else if (token.pinnedChannelId) {
    const channel = routing.channels.get(token.pinnedChannelId);
    if (!channel || channel.status !== CHANNEL_STATUS.enabled) return refusals.pinnedChannelDisabled();
    tiers = onlyChannel(channel);
    pinned = true;
  } else {
    tiers = tiersIn(routing, group, model);
    if (tiers.length === 0) return refusals.noChannel(group, model);
  }
  const priced = pricedModel(model, group);
  if (!priced) return refusals.priceMissing(model);
  return { token, model, group, tiers, routing, priced, pinned };
}

export function isAdmission(value: Admission | RelayFailure): value is Admission {
  return "tiers" in value;
}
