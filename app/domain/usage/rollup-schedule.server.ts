import { options } from "~/domain/options/store.server";
import { readRollupProgress, rollUpUsage } from "./rollups.server";

/**
 * The rollup job's timer fires every minute on one node; the operator's DataExportEnabled and
 * DataExportInterval (minutes) decide whether this tick rolls up. The interval is read from
 * the stored progress, so a restart or another node taking over keeps the rhythm.
 */
export async function runScheduledRollup(now = Math.floor(Date.now() / 1000)): Promise<string> {
  if (!options.bool("DataExportEnabled")) return "usage rollup off (DataExportEnabled=false)";
  const progress = await readRollupProgress();
  const intervalSeconds = Math.max(1, options.int("DataExportInterval")) * 60;
  if (progress && now - progress.lastRunAt < intervalSeconds) return "usage rollup not due";
  const run = await rollUpUsage(now);
  if (run.busy) return "usage rollup: another run is still going";
  return `usage rollup: ${run.rows} hourly rows for ${new Date(run.from * 1000).toISOString()}..${new Date(run.to * 1000).toISOString()}`;
}
