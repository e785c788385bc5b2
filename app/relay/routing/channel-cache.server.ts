import type { Channel } from "../../../db/schema";
import { CHANNEL_CHANGED_CHANNEL } from "~/domain/channels/channels.server";
import { getDb } from "~/utils/db.server";
import { onResubscribed, subscribe } from "~/utils/redis.server";
import { buildTiers, type Tier } from "./pick-channel";

/**
 * The routing table in memory: group → model → priority tiers of enabled channels, plus the
 * channel rows themselves. Rebuilt from the database whenever any node changes a channel
 * (pub/sub), so a disabled channel stops receiving traffic everywhere at once.
 */
export type RoutingTable = { routes: Map<string, Map<string, Tier[]>>; channels: Map<number, Channel> };

let table: Promise<RoutingTable> | undefined;
/** The table once loaded and still current: read without a promise on the relay's path. */
let loaded: RoutingTable | undefined;
let subscribed: Promise<void> | undefined;
let generation = 0;

async function loadTable(): Promise<RoutingTable> {
  const db = await getDb();
  const [abilities, channels] = await Promise.all([
    db.selectFrom("abilities").selectAll().where("enabled", "=", true).execute(),
    db.selectFrom("channels").selectAll().execute(),
  ]);
  const grouped = new Map<string, Map<string, { id: number; weight: number; priority: number }[]>>();
  for (const a of abilities) {
    const models = grouped.get(a.group) ?? new Map();
    grouped.set(a.group, models);
    const list = models.get(a.model) ?? [];
    list.push({ id: a.channel_id, weight: a.weight, priority: a.priority });
    models.set(a.model, list);
  }
  const routes = new Map<string, Map<string, Tier[]>>();
  for (const [group, models] of grouped)
    routes.set(group, new Map([...models].map(([model, list]) => [model, buildTiers(list)])));
  return { routes, channels: new Map(channels.map((c) => [c.id, c])) };
}

export function invalidateRoutingTable(): void {
  generation += 1;
  table = undefined;
  loaded = undefined;
}

async function current(): Promise<RoutingTable> {
  subscribed ??= subscribe(CHANNEL_CHANGED_CHANNEL, () => invalidateRoutingTable()).then(() =>
    onResubscribed(invalidateRoutingTable),
  );
  await subscribed;
  if (!table) {
    const started = generation;
    const loading = loadTable();
    table = loading;
    loading.then(
      (ready) => {
        if (generation === started) loaded = ready;
      },
      () => {
        if (generation === started) table = undefined;
      },
    );
  }
  return table;
}

/** The routing table: at once when loaded, else once loaded. */
export function routingTable(): RoutingTable | Promise<RoutingTable> {
  return loaded ?? current();
}

export function tiersIn(table: RoutingTable, group: string, model: string): Tier[] {
  return table.routes.get(group)?.get(model) ?? [];
}

/** Models reachable from a group (for /v1/models). */
export async function modelsForGroup(group: string): Promise<string[]> {
  return [...((await current()).routes.get(group)?.keys() ?? [])].sort();
}
