import { historySteps as history } from "./history/steps";
import type { ImportStep } from "./types";

/**
 * The import's steps, in order. Accounts first (users, then what points at them), options and
 * codes after; the history tables follow, since their rows point at users, tokens and channels.
 */
export const accountSteps: ImportStep[] = [];

/**
 * History steps (logs, top_ups, midjourneys, tasks, quota_data) go here, in this order: they
 * read `ctx.logSource` for logs, honour `ctx.options.skipLogs` / `logsSince`, write in batches
 * and resume where an earlier run stopped.
 */
export const historySteps: ImportStep[] = history;

export const importSteps: ImportStep[] = [...accountSteps, ...historySteps];
