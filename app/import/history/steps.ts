import { sql } from "kysely";
import { hourOf, rollUpRange, HOUR } from "~/domain/usage/rollups.server";
import { env } from "~/utils/env.server";
import { sequencesStep } from "../steps/sequences";
import type { ImportContext, ImportStep } from "../types";
import { copyWriter, insertWriter, type BatchWriter } from "./batch-writer";
import { moveHistory, type HistoryMove } from "./history-mover";
import { logsMove } from "./logs";
import { quotaDataMove } from "./quota-data";
import { midjourneysMove, tasksMove } from "./tasks";
import { topUpsMove } from "./top-ups";

/**
 * The history steps (decision 044): logs, top-ups, Midjourney and Suno tasks, quota_data, then
 * the dashboard rollups recomputed over what was imported.
 * Writes go through COPY on a PostgreSQL target and multi-row inserts on the embedded one.
 */
async function openWriter(ctx: ImportContext): Promise<BatchWriter | undefined> {
  if (!ctx.apply) return undefined;
  return env.DATABASE_URL ? copyWriter(env.DATABASE_URL) : insertWriter(ctx.target);
}

function historyStep(move: HistoryMove, skip?: (ctx: ImportContext) => string | undefined): ImportStep {
  return {
    name: move.source,
    async run(ctx) {
      const reason = skip?.(ctx);
      if (reason) {
        ctx.report.remark(move.source, reason);
        return;
      }
      const writer = await openWriter(ctx);
      try {
        await moveHistory(ctx, move, writer);
      } finally {
        await writer?.close();
      }
    },
  };
}

/**
 * After the rows: the rollups of every hour the target has logs or quota_data for, recomputed by
 * the gateway's own rollup code, and its progress marker set to now so the rollup job carries
 * on from here instead of working through the imported history again. The id sequences are
 * moved past the imported ids first: the rollup inserts quota_data rows of its own, which would
 * otherwise be numbered from 1 into the imported ids (the import's last step moves them again).
 */
const finishStep: ImportStep = {
  name: "rollups",
  async run(ctx) {
    if (!ctx.apply) return;
    await sequencesStep.run(ctx);
    const range = await sql<{ first: number | null; last: number | null }>`
      select min(t) as first, max(t) as last from (
        select min(created_at) as t from logs union all select max(created_at) from logs
        union all select min(created_at) from quota_data union all select max(created_at) from quota_data
      ) x
    `.execute(ctx.target);
    const { first, last } = range.rows[0] ?? { first: null, last: null };
    if (first === null || last === null) return;
    const started = Date.now();
    const from = hourOf(Number(first));
    const to = hourOf(Number(last)) + HOUR;
    await rollUpRange(from, to);
    const now = Math.floor(Date.now() / 1000);
    await sql`
      insert into usage_rollup_progress (id, rolled_until, last_run_at) values (1, ${hourOf(now)}, ${now})
      on conflict (id) do update set rolled_until = greatest(usage_rollup_progress.rolled_until, excluded.rolled_until), last_run_at = excluded.last_run_at
    `.execute(ctx.target);
    const span = `${new Date(from * 1000).toISOString().slice(0, 13)}h – ${new Date(to * 1000).toISOString().slice(0, 13)}h`;
    ctx.report.remark(
      "rollups",
      `dashboard rollups recomputed for ${span} UTC in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  },
};

export const historySteps: ImportStep[] = [
  historyStep(logsMove, (ctx) => (ctx.options.skipLogs ? "skipped (--skip-logs)" : undefined)),
  historyStep(topUpsMove),
  historyStep(midjourneysMove),
  historyStep(tasksMove),
  historyStep(quotaDataMove),
  finishStep,
];
