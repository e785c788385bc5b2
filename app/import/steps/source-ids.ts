import type { ImportContext } from "../types";
import { asInt } from "../values";

/** Ids of a source table, to tell orphans (rows pointing at nothing) before writing them. */
export async function sourceIds(ctx: ImportContext, table: string): Promise<Set<number>> {
  if (!(await ctx.source.tables()).includes(table)) return new Set();
  return new Set((await ctx.source.all(table, ["id"])).map((r) => asInt(r.id)));
}
