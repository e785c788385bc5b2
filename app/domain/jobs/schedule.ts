/**
 * When a schedule runs (decision 029), as pure functions of the clock so unit tests drive them
 * with a fake one. Times are unix milliseconds.
 *
 * A recurring job's timer ticks (a BullMQ job scheduler, or an in-process interval); an
 * option-driven schedule (channel auto-test, balance refresh, log retention) looks on every tick
 * whether its period has passed since its last start, and claims the run in the database, so one
 * node runs it per period whatever the number of nodes and ticks.
 */

/** A run that has said nothing for this long is taken to have died with its process. */
export const STALE_RUN_MS = 6 * 60 * 60 * 1000;

/** The period (ms) of an option given in minutes, or 0 (off): the option when set, else the environment's value. */
export function periodFromMinutes(optionMinutes: number, envMinutes: number | undefined): number {
  const minutes = optionMinutes > 0 ? optionMinutes : (envMinutes ?? 0);
  return Number.isFinite(minutes) && minutes > 0 ? Math.round(minutes * 60_000) : 0;
}

export type RunState = { lastStartedAt: number | null; running: boolean };

/** Whether a schedule of this period may start now: never run, or the period has passed, and no live run. */
export function isDue(state: RunState | undefined, periodMs: number, now: number): boolean {
  if (periodMs <= 0) return false;
  if (!state || state.lastStartedAt === null) return true;
  if (state.running && now - state.lastStartedAt < STALE_RUN_MS) return false;
  return now - state.lastStartedAt >= periodMs;
}

/** When the next run should start (now when overdue: the next tick starts it). Undefined when the schedule is off. */
export function nextRunAt(state: RunState | undefined, periodMs: number, now: number): number | undefined {
  if (periodMs <= 0) return undefined;
  if (!state || state.lastStartedAt === null) return now;
  return Math.max(now, state.lastStartedAt + periodMs);
}

/** One row of the channel page's schedule panel (times in unix seconds; undefined: never / off). */
export type ScheduleView = {
  name: string;
  label: string;
  lastRunAt?: number;
  outcome: string;
  message: string;
  running: boolean;
  nextRunAt?: number;
  off: boolean;
};
