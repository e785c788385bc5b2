import { historySteps as history } from "./history/steps";
import { channelsStep } from "./steps/channels";
import { optionsStep } from "./steps/options";
import { redemptionsStep } from "./steps/redemptions";
import { sequencesStep } from "./steps/sequences";
import { tokensStep } from "./steps/tokens";
import { usersStep } from "./steps/users";
import type { ImportStep } from "./types";

/**
 * The import's steps, in order. Accounts first (users, then what points at them), options and
 * codes after; the history tables follow, since their rows point at users, tokens and channels.
 */
export const accountSteps: ImportStep[] = [usersStep, tokensStep, channelsStep, optionsStep, redemptionsStep];

/**
 * History steps (logs, top_ups, midjourneys, tasks, quota_data; `./history/steps.ts`): they
 * read `ctx.logSource` for logs, honour `ctx.options.skipLogs` / `logsSince`, write in batches
 * and resume where an earlier run stopped.
 */
export const historySteps: ImportStep[] = history;

/** Last of all: sequences past every imported id (the history tables' too). */
export const finalSteps: ImportStep[] = [sequencesStep];

export const importSteps: ImportStep[] = [...accountSteps, ...historySteps, ...finalSteps];
