import type { Kysely, Transaction } from "kysely";
import type { Channel, DB } from "../../../db/schema";
import { CHANNEL_STATUS } from "./channel-status";

type Executor = Kysely<DB> | Transaction<DB>;

export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** One ability per group × model of the channel, carrying its routing attributes. */
export function abilitiesOf(channel: Pick<Channel, "id" | "group" | "models" | "status" | "priority" | "weight">) {
  const rows = [];
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === CHANNEL_STATUS.enabled,
        priority: channel.priority,
        weight: channel.weight,
      });
    }
  }
  return rows;
}

/**
 * Rewrites a channel's abilities. Always called inside the transaction that wrote the channel,
 * so the routing index never disagrees with the channels table.
 */
export async function rebuildAbilities(
  trx: Executor,
  channel: Pick<Channel, "id" | "group" | "models" | "status" | "priority" | "weight">,
): Promise<void> {
  await trx.deleteFrom("abilities").where("channel_id", "=", channel.id).execute();
  const rows = abilitiesOf(channel);
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto("abilities")
      .values(rows.slice(i, i + 500))
      .execute();
}
