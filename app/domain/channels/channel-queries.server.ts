import { sql } from "kysely";
import type { Channel } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { readId } from "~/utils/edge-input";

/** Reading channels for the console and /api: one, a page of them, or a search. */
export async function getChannel(id: number): Promise<Channel | undefined> {
  const db = await getDb();
  return db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listChannels(
  page: number,
  size: number,
  idSort: boolean,
): Promise<{ items: Channel[]; total: number }> {
  const db = await getDb();
  let query = db.selectFrom("channels").selectAll();
  query = idSort ? query.orderBy("id", "desc") : query.orderBy("priority", "desc").orderBy("id", "desc");
  const [items, total] = await Promise.all([
    query
      .limit(size)
      .offset(page * size)
      .execute(),
    db
      .selectFrom("channels")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

/** Keyword (id, name or base URL), group and model filters; lists are matched as whole items. */
export async function searchChannels(
  filters: { keyword?: string; group?: string; model?: string },
  idSort = false,
): Promise<Channel[]> {
  const db = await getDb();
  let query = db.selectFrom("channels").selectAll();
  const keyword = filters.keyword?.trim();
  if (keyword) {
    // A keyword that is no int4 id cannot match the id column (and must not reach it as one).
    const id = readId(keyword) ?? -1;
    query = query.where((eb) =>
      eb.or([
        eb("id", "=", id),
        eb(sql`position(${keyword.toLowerCase()} in lower(name))`, ">", 0),
        eb(sql`position(${keyword.toLowerCase()} in lower(base_url))`, ">", 0),
      ]),
    );
  }
  if (filters.group?.trim())
    query = query.where(sql<boolean>`${filters.group.trim()} = any(string_to_array("group", ','))`);
  if (filters.model?.trim())
    query = query.where(sql<boolean>`${filters.model.trim()} = any(string_to_array(models, ','))`);
  query = idSort ? query.orderBy("id", "desc") : query.orderBy("priority", "desc").orderBy("id", "desc");
  return query.limit(500).execute();
}
