import { bootApp } from "~/utils/boot.server";
import { getDb } from "~/utils/db.server";
import { sql } from "kysely";

/** Readiness: answers once the database is open, migrated and reachable. */
export async function loader() {
  await bootApp();
  const db = await getDb();
  await sql`select 1`.execute(db);
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
