/** The shapes shared by the limit counters (window-limits.server.ts has the why). */
export const WINDOW_BUCKETS = 60;

export type WindowAnswer = {
  allowed: boolean;
  /** What the window holds after this step. */
  used: number;
  /** When refused: milliseconds until enough of the window has passed for the request to fit. */
  retryAfterMs: number;
};

/**
 * One counter of a step. take: counts `amount` if the window then holds at most `limit`; peek:
 * fits while the window holds less than `limit` (for counts known only afterwards), counts
 * nothing; slot: holds one of `limit` places for `ttlMs`.
 */
export type LimitSpec =
  | { kind: "take" | "peek"; key: string; limit: number; windowMs: number; amount?: number }
  | { kind: "slot"; key: string; limit: number; ttlMs: number };

/** A slot held while a request runs; give it back with `release` (twice is harmless). */
export type Slot = { release(): void };

export type StepAnswer = { allowed: true; slot?: Slot } | { allowed: false; refused: number; answer: WindowAnswer };

export const bucketMsOf = (windowMs: number) => Math.max(1, Math.round(windowMs / WINDOW_BUCKETS));
