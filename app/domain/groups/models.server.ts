import { getDb } from "~/utils/db.server";

/** Models a group can reach through enabled abilities (what the user may call and limit tokens to). */
export async function listModelsForGroup(group: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("abilities")
    .select("model")
    .distinct()
    .where("group", "=", group)
    .where("enabled", "=", true)
    .orderBy("model")
    .execute();
  return rows.map((r) => r.model);
}
