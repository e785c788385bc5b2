import { sql } from "kysely";
import type { ImportStep } from "../types";

/** Every table the import writes ids into; a table without a sequence is passed over. */
const TABLES = ["users", "tokens", "channels", "redemptions", "logs", "top_ups", "midjourneys", "tasks", "quota_data"];

/** Last: the target's sequences are set past the imported ids, so the next new row gets a fresh id. */
export const sequencesStep: ImportStep = {
  name: "sequences",
  async run(ctx) {
    if (!ctx.apply) return;
    for (const table of TABLES) {
      const found = await sql<{ seq: string | null }>`select pg_get_serial_sequence(${table}, 'id') as seq`.execute(
        ctx.target,
      );
      const seq = found.rows[0]?.seq;
      if (!seq) continue;
      await sql`select setval(${seq}::regclass, greatest((select coalesce(max(id), 0) from ${sql.table(table)}), 1))`.execute(
        ctx.target,
      );
    }
  },
};
