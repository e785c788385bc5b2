import type { User } from "../../../db/schema";
import { userUsableGroups, usableGroupLabels } from "~/domain/groups/groups.server";
import { options } from "~/domain/options/store.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { routingTable, type RoutingTable } from "~/relay/routing/channel-cache.server";
import { toPricingEntry, type PricingEntry } from "./price-list";
import { pricedModel } from "./price-tables.server";

/** The group a visitor is priced in: where new accounts start. */
export const DEFAULT_GROUP = "default";

/**
 * Who is looking, and which groups they may see. The reference shows every group to everyone;
 * here an ordinary user sees the groups they can put a token in (UserUsableGroups ∩ GroupRatio
 * plus their own), a visitor the public list plus `default`, and admins all of them (decision
 * 022) — a private group's name and models are not published.
 */
export type PricingAudience = {
  signedIn: boolean;
  /** The group prices are shown in until another is picked: the user's own, else `default`. */
  ownGroup: string;
  /** Group → label the viewer may switch to; undefined for admins (every group). */
  usable: Record<string, string> | undefined;
};

export function pricingAudience(user: Pick<User, "group" | "role"> | undefined): PricingAudience {
  if (!user)
    return {
      signedIn: false,
      ownGroup: DEFAULT_GROUP,
      usable: { [DEFAULT_GROUP]: "默认分组", ...usableGroupLabels() },
    };
  return { signedIn: true, ownGroup: user.group, usable: user.role >= ROLE_ADMIN ? undefined : userUsableGroups(user) };
}

/** The relay's own rule for a group without a GroupRatio entry (priceModel): ratio 1. */
export function groupRatioOf(group: string): number {
  const ratios = options.json<Record<string, number>>("GroupRatio") ?? {};
  return typeof ratios[group] === "number" ? ratios[group] : 1;
}

export type PriceList = {
  /** Priced models the audience can reach, by name. */
  entries: PricingEntry[];
  /** Reachable models with neither a ratio nor a price: the relay refuses them (model_price_error). */
  unpriced: { model_name: string; enable_groups: string[] }[];
  /** Every group the audience may see → the ratio the relay bills it at. */
  groupRatio: Record<string, number>;
  /** The groups the audience may switch to, with their labels. */
  usableGroups: Record<string, string>;
};

let invertedFrom: RoutingTable | undefined;
let modelGroups = new Map<string, string[]>();

/** model → the groups whose enabled abilities reach it, from the relay's own routing table. */
function groupsByModel(table: RoutingTable): Map<string, string[]> {
  if (invertedFrom === table) return modelGroups;
  const inverted = new Map<string, string[]>();
  for (const [group, models] of table.routes) {
    for (const model of models.keys()) {
      const groups = inverted.get(model) ?? [];
      groups.push(group);
      inverted.set(model, groups);
    }
  }
  for (const groups of inverted.values()) groups.sort();
  invertedFrom = table;
  modelGroups = new Map([...inverted].sort(([a], [b]) => a.localeCompare(b)));
  return modelGroups;
}

/**
 * The public price list. Built on each call from the relay's routing table (rebuilt whenever any
 * node changes a channel) and its price lookup (re-read whenever a ratio option changes), so it
 * lists exactly what the relay routes and prices what the relay charges — no separate cache to
 * go stale. Both are in memory: the cost is one pass over the models.
 */
export async function buildPriceList(audience: PricingAudience): Promise<PriceList> {
  const table = await routingTable();
  const visible = audience.usable ? new Set(Object.keys(audience.usable)) : undefined;
  const entries: PricingEntry[] = [];
  const unpriced: PriceList["unpriced"] = [];
  const seenGroups = new Set<string>(visible ?? []);
  for (const [model, groups] of groupsByModel(table)) {
    const shown = visible ? groups.filter((g) => visible.has(g)) : groups;
    if (shown.length === 0) continue;
    for (const g of shown) seenGroups.add(g);
    const priced = pricedModel(model, shown[0]!);
    if (priced) entries.push(toPricingEntry(model, priced.pricing, shown));
    else unpriced.push({ model_name: model, enable_groups: shown });
  }
  if (!visible)
    for (const g of Object.keys(options.json<Record<string, number>>("GroupRatio") ?? {})) seenGroups.add(g);
  const groupRatio = Object.fromEntries([...seenGroups].sort().map((g) => [g, groupRatioOf(g)]));
  const labels = usableGroupLabels();
  const usableGroups = audience.usable ?? Object.fromEntries(Object.keys(groupRatio).map((g) => [g, labels[g] ?? g]));
  return { entries, unpriced, groupRatio, usableGroups };
}
